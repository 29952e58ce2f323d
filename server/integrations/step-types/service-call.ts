import { jsonBody } from '../http/read-body.ts';
import type { HttpStepType, PreparedRequest } from '../step-contract/step-type.ts';

const segment = { type: 'string', pattern: '^[A-Za-z0-9_.~-]+$' } as const;

/** Service level: module + action + body, mapped onto `{baseUrl}/{module}/{action}` of a configured service. */
export const serviceStepType: HttpStepType = {
  kind: 'http',
  name: 'service',
  level: 'service',
  description:
    "Calls an action of a service set up in the bot's settings: its address is the service's own, then the module and the action; the result holds the answer's status and content.",
  needsService: 'always',
  defaultTiming: 'sync',
  paramsSchema: {
    type: 'object',
    properties: {
      module: segment,
      action: segment,
      method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
      body: { type: 'object', default: {} },
    },
    required: ['module', 'action'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { status: { type: 'integer' }, body: {} },
    required: ['status', 'body'],
  },
  buildRequest(params): PreparedRequest {
    const method = params.method as PreparedRequest['method'];
    const path = `${params.module as string}/${params.action as string}`;
    // A GET has no body: its fields go in the query string instead.
    return method === 'GET'
      ? { method, url: path, query: params.body as Record<string, unknown> }
      : { method, url: path, json: params.body };
  },
  readOutput: (response) => ({ status: response.status, body: jsonBody(response) }),
};
