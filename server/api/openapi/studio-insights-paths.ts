/**
 * The insights part of the studio's API in the OpenAPI document: routes in
 * server/studio-server/http/insights-routes.ts. Personal data: owners and analysts only.
 */
import { error, json, ref, studioErrors, studioOperation, dayParameter, type Obj } from './studio-openapi-parts.ts';

const common = {
  '400': error(
    'invalid_parameter: a bad date, a range over 366 days or backwards, a bad version id, cursor or limit, or an unknown parameter.',
  ),
  ...studioErrors,
};

const date = dayParameter;
const range = [
  date('from', 'First UTC day included, YYYY-MM-DD; 29 days before `to` by default.'),
  date('to', 'Last UTC day included, YYYY-MM-DD; today by default.'),
];
const versionParameter = (description: string) => ({
  name: 'version',
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
});
const channelParameter = (description: string) => ({
  name: 'channel',
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
});
const everyChannel =
  'One channel (a `channelId`: webchat, telegram, whatsapp, twilio-sms, twilio-whatsapp, slack, messenger, teams or a REST channel): conversations started on it, and their messages, calls, clicks and sends; every channel when absent.';
const userIdParameter = {
  name: 'userId',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 256 },
};
const count = { type: 'integer' };
const textCount = {
  type: 'object',
  additionalProperties: false,
  required: ['text', 'count'],
  properties: { text: { type: 'string' }, count },
};

const operation = studioOperation('Studio: insights');

export function studioInsightsPaths(): Obj {
  const read = 'readConversations (owner, analyst)';
  return {
    '/studio/api/insights/dashboard': {
      get: operation(
        'insightsDashboard',
        'The dashboard over a range of days',
        read,
        "Conversations started, active users and messages per UTC day; each dialog's conversations that entered it and that completed it (an end step, past its last step, or one of its own steps jumping to another dialog); the top 20 unprocessed inputs and FAQ misses; FAQ answered and missed; integration calls by status class with p50 and p95 latency (from buckets, within about 12 %); link clicks by domain; emails and SMS sent. Read from counters kept with each turn; preview users count nowhere.",
        {
          parameters: [
            ...range,
            versionParameter('One published version (as the versions list names it); every version when absent.'),
            channelParameter(everyChannel),
          ],
          responses: { '200': json(ref('schemas/InsightsDashboard'), 'The figures.'), ...common },
        },
      ),
    },
    '/studio/api/insights/drop-off': {
      get: operation(
        'insightsDropOff',
        'Reach and drop-off per step of one version',
        read,
        'For each step of the version, in definition order: conversations (started in the range) that reached it, and those whose last step it was and that are over (no turn for INSIGHTS_WINDOW). Conversations still going are counted in `open`, not as stopped.',
        {
          parameters: [
            ...range,
            versionParameter('The published version; the one in service when absent.'),
            channelParameter(everyChannel),
          ],
          responses: {
            '200': json(ref('schemas/InsightsDropOff'), 'The figures.'),
            '404': error('not_found: no such version.'),
            ...common,
          },
        },
      ),
    },
    '/studio/api/insights/conversations': {
      get: operation(
        'searchConversations',
        'Search conversations',
        read,
        "Conversations that started in the range, newest first, matching every filter given. Page with `cursor` = the previous page's nextCursor.",
        {
          parameters: [
            ...range,
            {
              name: 'text',
              in: 'query',
              required: false,
              description: 'Words the user wrote (case-insensitive).',
              schema: { type: 'string', minLength: 1, maxLength: 200 },
            },
            {
              name: 'field',
              in: 'query',
              required: false,
              description: 'A user-data field the bot declares; with `value`.',
              schema: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
            },
            {
              name: 'value',
              in: 'query',
              required: false,
              description: 'The value `field` must have (compared as text).',
              schema: { type: 'string', maxLength: 200 },
            },
            channelParameter('The channel the conversation started on (its `channelId`).'),
            {
              name: 'reached',
              in: 'query',
              required: false,
              description: 'dialogId/stepId the conversation reached.',
              schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}/[A-Za-z0-9_-]{1,64}$' },
            },
            {
              name: 'integrationError',
              in: 'query',
              required: false,
              description: 'true: only conversations where an integration call failed.',
              schema: { type: 'string', enum: ['true', 'false'] },
            },
            { name: 'cursor', in: 'query', required: false, schema: { type: 'string', maxLength: 300 } },
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
            },
          ],
          responses: { '200': json(ref('schemas/ConversationPage'), 'The page.'), ...common },
        },
      ),
    },
    '/studio/api/export/{name}': {
      get: operation(
        'downloadExportFromStudio',
        'Download an export',
        read,
        "The exports of GET /api/management/export/{name} (the spec's eight and the transcript), with the same query parameters (time range, paging, format, BOM, CSV formula guard, and the where/notEmpty filters of the user-data exports), for a signed-in owner or analyst. Preview users are in none.",
        {
          parameters: [
            {
              name: 'name',
              in: 'path',
              required: true,
              schema: {
                type: 'string',
                enum: [
                  'userData',
                  'userDataSnapshot',
                  'nlpLog',
                  'outgoingEmail',
                  'outgoingSms',
                  'fuzzyQuestionAnswerLog',
                  'integrationLog',
                  'urlTracker',
                  'transcript',
                ],
              },
            },
            ref('parameters/fromTimestamp'),
            ref('parameters/toTimestamp'),
            ref('parameters/limit'),
            ref('parameters/cursor'),
            ref('parameters/format'),
            ref('parameters/bom'),
            ref('parameters/csvFormulaGuard'),
          ],
          responses: {
            '200': {
              description: 'The records, sorted by time.',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { type: 'object', additionalProperties: true } },
                },
                'application/x-ndjson': { schema: { type: 'string', description: 'One record a line.' } },
                'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' } },
              },
            },
            '404': error('not_found: no export of that name.'),
            ...common,
          },
        },
      ),
    },
    '/studio/api/insights/users/{userId}': {
      get: operation(
        'readUserTranscript',
        "One user's transcript",
        read,
        "The user's messages, 200 a page, each with the dialog and step it came from (a user's: the step it answered) and the integration calls made after it (secrets redacted); the user's data and, on the first page, their conversations. Page with `afterSeq` = the previous page's nextAfterSeq.",
        {
          parameters: [
            userIdParameter,
            { name: 'afterSeq', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
          ],
          responses: {
            '200': json(ref('schemas/UserTranscript'), 'The page.'),
            '404': error('not_found: no such user (erased, or never wrote).'),
            ...common,
          },
        },
      ),
      delete: operation(
        'eraseUserFromStudio',
        'Erase a user',
        'eraseUsers (owner)',
        'Erases everything held about the user, as DELETE /api/management/users/{userId} does; the audit trail records it with a digest of the id.',
        {
          parameters: [userIdParameter],
          responses: {
            '200': json(
              {
                type: 'object',
                additionalProperties: false,
                required: ['userId', 'erased'],
                properties: { userId: { type: 'string' }, erased: ref('schemas/ErasureReport') },
              },
              'Erased.',
            ),
            ...common,
          },
        },
      ),
    },
  };
}

const summary: Obj = {
  type: 'object',
  additionalProperties: false,
  required: [
    'userId',
    'startedAt',
    'lastAt',
    'channel',
    'version',
    'lastVersion',
    'steps',
    'lastStep',
    'integrationError',
    'messages',
    'text',
    'userData',
    'events',
  ],
  properties: {
    userId: { type: 'string' },
    startedAt: { type: 'integer', description: 'Epoch milliseconds.' },
    lastAt: { type: 'integer' },
    channel: { type: 'string' },
    version: { type: 'string' },
    lastVersion: { type: 'string' },
    steps: { type: 'array', items: { type: 'string' }, description: 'dialogId/stepId of each step reached, in order.' },
    lastStep: { type: ['string', 'null'] },
    integrationError: { type: 'boolean' },
    messages: count,
    text: { type: 'string', description: "The user's words, at most 1000 characters." },
    userData: { type: 'object', additionalProperties: true },
    events: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'kind', 'name'],
        properties: {
          at: { type: 'integer' },
          kind: { type: 'string', enum: ['pageEvent', 'trigger', 'timer'] },
          name: { type: 'string' },
        },
      },
    },
  },
};

export function studioInsightsSchemas(): Obj {
  return {
    InsightsDashboard: {
      type: 'object',
      additionalProperties: false,
      required: [
        'from',
        'to',
        'version',
        'channel',
        'daily',
        'totals',
        'channels',
        'dialogs',
        'unprocessed',
        'faq',
        'integrations',
        'urlClicks',
        'sent',
      ],
      properties: {
        from: { type: 'string', format: 'date' },
        to: { type: 'string', format: 'date' },
        version: { type: ['string', 'null'] },
        channel: { type: ['string', 'null'] },
        daily: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['date', 'conversations', 'activeUsers', 'messagesUser', 'messagesBot'],
            properties: {
              date: { type: 'string', format: 'date' },
              conversations: count,
              activeUsers: count,
              messagesUser: count,
              messagesBot: count,
            },
          },
        },
        totals: {
          type: 'object',
          additionalProperties: false,
          required: ['conversations', 'messagesUser', 'messagesBot'],
          properties: { conversations: count, messagesUser: count, messagesBot: count },
        },
        channels: {
          type: 'array',
          description:
            'Per channel, most conversations first: a conversation and its messages count under the channel it started on. Counts kept before channels were counted are in the totals only.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['channel', 'conversations', 'messagesUser', 'messagesBot'],
            properties: { channel: { type: 'string' }, conversations: count, messagesUser: count, messagesBot: count },
          },
        },
        dialogs: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['dialogId', 'started', 'completed'],
            properties: { dialogId: { type: 'string' }, started: count, completed: count },
          },
        },
        unprocessed: { type: 'array', items: textCount },
        faq: {
          type: 'object',
          additionalProperties: false,
          required: ['answered', 'missed', 'misses'],
          properties: { answered: count, missed: count, misses: { type: 'array', items: textCount } },
        },
        integrations: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['status', 'calls', 'p50Ms', 'p95Ms'],
            properties: {
              status: { type: 'string' },
              calls: count,
              p50Ms: { type: 'number' },
              p95Ms: { type: 'number' },
            },
          },
        },
        urlClicks: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['domain', 'clicks'],
            properties: { domain: { type: 'string' }, clicks: count },
          },
        },
        sent: {
          type: 'object',
          additionalProperties: false,
          required: ['emails', 'sms'],
          properties: { emails: count, sms: count },
        },
      },
    },
    InsightsDropOff: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to', 'version', 'channel', 'windowMs', 'steps', 'open'],
      properties: {
        from: { type: 'string', format: 'date' },
        to: { type: 'string', format: 'date' },
        version: { type: 'string' },
        channel: { type: ['string', 'null'] },
        windowMs: count,
        open: count,
        steps: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['dialogId', 'stepId', 'reached', 'stopped'],
            properties: { dialogId: { type: 'string' }, stepId: { type: 'string' }, reached: count, stopped: count },
          },
        },
      },
    },
    ConversationSummary: summary,
    ConversationPage: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to', 'conversations', 'nextCursor'],
      properties: {
        from: { type: 'string', format: 'date' },
        to: { type: 'string', format: 'date' },
        conversations: { type: 'array', items: ref('schemas/ConversationSummary') },
        nextCursor: { type: ['string', 'null'] },
        searchedBackTo: {
          type: 'integer',
          description:
            'The search stopped at its budget (INSIGHTS_SEARCH_BUDGET conversations read): it read every conversation that started after this time. nextCursor carries on from there.',
        },
        searchedConversations: {
          type: 'integer',
          minimum: 0,
          description: 'With searchedBackTo: how many conversations the search read before it stopped.',
        },
      },
    },
    UserTranscript: {
      type: 'object',
      additionalProperties: false,
      required: ['userId', 'channel', 'userData', 'conversations', 'messages', 'events', 'nextAfterSeq'],
      properties: {
        userId: { type: 'string' },
        channel: { type: 'string' },
        userData: { type: 'object', additionalProperties: true },
        conversations: { type: 'array', items: ref('schemas/ConversationSummary') },
        events: {
          type: 'array',
          description:
            "The page events, triggers and timers that happened during this page's messages (on the first page, also those before its first message), oldest first.",
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['at', 'kind', 'name'],
            properties: {
              at: { type: 'integer' },
              kind: { type: 'string', enum: ['pageEvent', 'trigger', 'timer'] },
              name: { type: 'string' },
            },
          },
        },
        nextAfterSeq: { type: ['integer', 'null'] },
        messages: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['seq', 'at', 'from', 'channel', 'text', 'message', 'integrationCalls'],
            properties: {
              seq: count,
              at: { type: 'integer' },
              from: { type: 'string', enum: ['user', 'bot'] },
              channel: {
                type: 'string',
                description:
                  "The channel it went through (a channelId): that of the conversation it belongs to, or the user's.",
              },
              text: { type: ['string', 'null'] },
              message: { type: 'object', additionalProperties: true },
              dialogId: { type: 'string' },
              stepId: { type: 'string' },
              integrationCalls: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: true,
                  description:
                    'As the integrationLog export holds it (secrets redacted): method, url, requestHeaders, requestBody, responseStatus, responseBody, durationMs, error.',
                },
              },
            },
          },
        },
      },
    },
  };
}
