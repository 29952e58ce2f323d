import { jsonBody } from '../http/read-body.ts';
import type { HttpStepType } from '../step-contract/step-type.ts';

/**
 * GET {service}/users/{userId}/events → [{id, name, date}] (spec 4.3). The
 * `@cards` mapping turns the list into carousel cards {title, subtitle}.
 */
export const listUserEvents: HttpStepType = {
  kind: 'http',
  name: 'listUserEvents',
  level: 'action',
  description:
    'Lists a user\'s events, each with its id, name and date; the mapping "cards" shows them as a carousel of cards.',
  needsService: 'always',
  defaultTiming: 'sync',
  paramsSchema: {
    type: 'object',
    properties: {
      userId: { type: 'string', minLength: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
    },
    required: ['userId'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: ['string', 'integer'] },
        name: { type: 'string' },
        date: { type: 'string', format: 'date-time' },
      },
      required: ['id', 'name', 'date'],
    },
  },
  mappings: {
    cards: `[$.{ "title": name, "subtitle": $fromMillis($toMillis(date), '[D1] [MNn] [Y0001], [H01]:[m01] UTC') }]`,
  },
  buildRequest: (params) => ({
    method: 'GET',
    url: `users/${encodeURIComponent(params.userId as string)}/events`,
    query: params.limit === undefined ? {} : { limit: params.limit },
  }),
  readOutput: jsonBody,
};
