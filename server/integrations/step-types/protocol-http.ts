import { lenientBody } from '../http/read-body.ts';
import type { HttpStepType, PreparedRequest } from '../step-contract/step-type.ts';

/** Protocol level: a generic HTTP request; the tree parses the body itself. */
export const httpStepType: HttpStepType = {
  kind: 'http',
  name: 'http',
  level: 'protocol',
  description:
    "Sends a request to any web address, or to a path under the step's service, with the method, headers, query parameters and body given here; the result holds the answer's status, headers and content.",
  needsService: 'optional',
  defaultTiming: 'sync',
  paramsSchema: {
    type: 'object',
    properties: {
      endpoint: {
        type: 'string',
        minLength: 1,
        description: "A full web address (https://…), or a path under the step's service.",
      },
      method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], default: 'GET' },
      headers: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
      query: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, default: {} },
      body: {},
    },
    required: ['endpoint'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { status: { type: 'integer' }, headers: { type: 'object' }, body: {} },
    required: ['status', 'headers', 'body'],
  },
  buildRequest(params): PreparedRequest {
    return {
      url: params.endpoint as string,
      method: params.method as PreparedRequest['method'],
      headers: params.headers as Record<string, string>,
      query: params.query as Record<string, unknown>,
      json: params.body,
    };
  },
  readOutput: (response) => ({ status: response.status, headers: response.headers, body: lenientBody(response) }),
};
