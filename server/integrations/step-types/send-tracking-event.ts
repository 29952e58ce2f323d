import type { HttpStepType } from '../step-contract/step-type.ts';

/** POST {service}/tracking-events: fire and forget, so it runs asynchronously unless the step says otherwise. */
export const sendTrackingEvent: HttpStepType = {
  kind: 'http',
  name: 'sendTrackingEvent',
  level: 'action',
  description:
    'Sends a tracking event; the conversation does not wait for it (it is sent in the background, and again if it fails).',
  needsService: 'always',
  defaultTiming: 'async',
  paramsSchema: {
    type: 'object',
    properties: {
      event: { type: 'string', minLength: 1 },
      userId: { type: 'string', minLength: 1 },
      properties: { type: 'object', default: {} },
    },
    required: ['event', 'userId'],
    additionalProperties: false,
  },
  outputSchema: {},
  buildRequest: (params) => ({ method: 'POST', url: 'tracking-events', json: params }),
  readOutput: () => null,
};
