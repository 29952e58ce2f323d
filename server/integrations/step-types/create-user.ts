import { jsonBody } from '../http/read-body.ts';
import type { HttpStepType } from '../step-contract/step-type.ts';

/** POST {service}/users {email, name, surname, interestedInProductIds} → {id} (spec 4.3); the output is the new id. */
export const createUser: HttpStepType = {
  kind: 'http',
  name: 'createUser',
  level: 'action',
  description: 'Creates a user in the external system and returns the new id.',
  needsService: 'always',
  defaultTiming: 'sync',
  paramsSchema: {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email' },
      name: { type: 'string', minLength: 1 },
      surname: { type: 'string', minLength: 1 },
      interestedInProductIds: { type: 'array', items: { type: 'number' }, default: [] },
    },
    required: ['email', 'name', 'surname'],
    additionalProperties: false,
  },
  outputSchema: { type: ['string', 'integer'] },
  buildRequest: (params) => ({ method: 'POST', url: 'users', json: params }),
  readOutput(response) {
    const body = jsonBody(response) as { id?: unknown } | null;
    // Unwrapped so the output variable holds the id itself; a missing id fails the output schema.
    return body && typeof body === 'object' ? body.id : body;
  },
};
