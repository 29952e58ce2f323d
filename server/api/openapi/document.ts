import { MAX_JSON_DEPTH } from '../../../shared/json-bounds.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import { EXPORT_NAMES, USER_DATA_EXPORTS, type ExportName } from '../../app/export-records.ts';
import { TRIGGER_BODY_BOUNDS } from '../management/body-bounds.ts';
import { MAX_LIMIT, MAX_TIMESTAMP } from '../management/export-query.ts';
import { auditPaths, auditRecordSchema } from './audit-paths.ts';
import { channelKeyScheme, channelPaths, channelWebhooks } from './channel-paths.ts';
import { metaSignatureScheme, twilioSignatureScheme, vendorWebhookPaths } from './vendor-webhook-paths.ts';
import { botFrameworkTokenScheme, slackSignatureScheme, telegramSecretScheme, webhookPaths } from './webhook-paths.ts';
import { messageSchemas } from './message-schemas.ts';
import { error, exportParameters, managementErrors, ref, type Obj } from './operation-parts.ts';
import { erasureReportSchema, errorSchema, recordSchemas, triggerAcceptedSchema } from './schemas.ts';
import { studioPaths } from './studio-paths.ts';
import { subscriptionPaths, subscriptionSchemas, subscriptionWebhooks } from './subscription-paths.ts';

const SINCE: Record<ExportName, string | null> = {
  userData: null,
  userDataSnapshot: 'v1.7.474',
  nlpLog: 'v1.7.474',
  outgoingEmail: 'v1.7.474',
  outgoingSms: 'v1.7.474',
  fuzzyQuestionAnswerLog: 'v1.7.474',
  integrationLog: 'v1.7.474',
  urlTracker: 'v1.7.474',
  transcript: null,
};

function exportOperation(definition: BotDefinition, name: ExportName): Obj {
  const userData = USER_DATA_EXPORTS.includes(name);
  const parameters: Obj[] = [...exportParameters];
  if (userData) {
    parameters.push(ref('parameters/notEmpty'));
    for (const field of definition.userDataFields) {
      parameters.push({
        name: `where${field[0]!.toUpperCase()}${field.slice(1)}`,
        in: 'query',
        required: false,
        description: `Only records whose "${field}" equals this value, compared as strings. The field part of the name is case-insensitive (where${field} works too).`,
        schema: { type: 'string' },
      });
    }
  }
  const timeRule =
    name === 'userData'
      ? "Every known user is exported, whether they wrote or not. timestamp is the time of the user's last message (spec 4.1 rule 1), or the time they were first stored when they never wrote; what the bot does on its own (triggers, timers) never moves it. fromTimestamp/toTimestamp filter by it."
      : name === 'transcript'
        ? "Beyond the spec: every message of every user, from either side; timestamp is the message's time, and fromTimestamp/toTimestamp filter by it."
        : "fromTimestamp/toTimestamp filter by the record's timestamp.";
  const operationId = `export${name[0]!.toUpperCase()}${name.slice(1)}`;
  return {
    operationId,
    tags: ['Export'],
    summary: `Export ${name}`,
    description: [
      `Streams every ${name} record in the range as a JSON array sorted by timestamp ascending (ties in insertion order), read from a database cursor so memory stays flat however many rows match. ${timeRule}`,
      SINCE[name]
        ? `Available since bot hosting version ${SINCE[name]}.`
        : name === 'transcript'
          ? ''
          : 'Available in every hosting version.',
      'Without filters the whole history is returned; fetching the past day once a day is the recommended practice.',
      userData
        ? 'where<FieldName> and notEmpty apply while streaming; `limit` counts records after filtering. An unknown field is a 400 listing the known fields.'
        : '',
      'Unknown query parameters are a 400 (a misspelt filter must not silently return everything).',
    ]
      .filter(Boolean)
      .join('\n\n'),
    parameters,
    responses: {
      '200': {
        description:
          'The records. With `limit`, X-Next-Cursor and Link rel="next" are sent only when there may be more.',
        headers: {
          'X-Next-Cursor': { description: 'Cursor of the next page; pass it as `cursor`.', schema: { type: 'string' } },
          Link: {
            description: 'URL of the next page, `<...>; rel="next"` (without the function key).',
            schema: { type: 'string' },
          },
        },
        links: {
          nextPage: {
            operationId,
            description:
              'The next page: the same export with the cursor from X-Next-Cursor (repeat the other parameters).',
            parameters: { cursor: '$response.header.X-Next-Cursor' },
          },
        },
        content: {
          'application/json': { schema: { type: 'array', items: ref(`schemas/${name}Record`) } },
          'application/x-ndjson': {
            schema: {
              type: 'string',
              description: 'One record a line (JSON), sent for Accept: application/x-ndjson or format=ndjson.',
            },
          },
          'text/csv': {
            schema: {
              type: 'string',
              description:
                'format=csv: RFC 4180 CSV with a header row of the record fields, starting with a UTF-8 byte order mark unless bom=false (so Excel reads UTF-8). Objects and arrays are JSON in the cell; null is an empty cell. A text cell starting with = + - @ (or tab/CR) is prefixed with a single quote so spreadsheets do not evaluate it (CSV formula injection), unless csvFormulaGuard=false.',
            },
          },
        },
      },
      '400': error(
        'invalid_parameter: a timestamp that is not a non-negative integer, fromTimestamp > toTimestamp, a bad limit, cursor or format, an unknown where-field or parameter.',
      ),
      '404': error('not_found: there is no export of that name.'),
      ...managementErrors,
    },
  };
}

const triggerResponses = {
  '202': {
    description:
      "The trigger is stored durably; the dialog runs next. It is never lost, even if the server stops right after answering, and runs once: a restart does not run it again. One user's triggers run in the order they were accepted.",
    content: { 'application/json': { schema: ref('schemas/TriggerAccepted') } },
  },
  '400': error(
    `invalid_address (not base64, not JSON, missing bot/user/channelId, or nested deeper than ${MAX_JSON_DEPTH} levels), invalid_parameter (mode or query), or invalid_body (not JSON, not an object, nested deeper than ${MAX_JSON_DEPTH} levels, or more than ${TRIGGER_BODY_BOUNDS.maxNodes} values; details.limit says which).`,
  ),
  '404': error('bot_not_found: the address or URL names another bot. dialog_not_found: the bot has no such dialog.'),
  '409': error(
    "The user's channel cannot carry the dialog now, and nothing is stored: whatsapp_window_closed (a WhatsApp user, directly or through Twilio, who has not written in the last 24 hours, for a dialog that names no whatsappTemplate: outside that window WhatsApp delivers only approved templates, and a dialog that names one is started with it; details.lastMessageAt), sms_opted_out (an SMS number that texted STOP and not START since), or teams_no_conversation (a Teams user who never installed the bot nor wrote to it: Teams lets a bot write only where it has a conversation).",
  ),
  '413': error('payload_too_large: the body is over 64 KiB, as sent or once decompressed.'),
  '415': error(
    'unsupported_media_type: a body was sent with a Content-Type other than application/json, or a Content-Encoding other than gzip, deflate or br.',
  ),
  ...managementErrors,
};

const triggerBody = {
  required: false,
  description: `Optional JSON object: at most 64 KiB (it may be sent compressed with Content-Encoding gzip, deflate or br), nested at most ${MAX_JSON_DEPTH} levels deep (the object itself is level 1, so {"a":{"b":1}} has 2), and at most ${TRIGGER_BODY_BOUNDS.maxNodes} values in all (objects, arrays, strings, numbers, booleans, nulls). Beyond a bound the answer is 400 invalid_body. It is stored as the user-data field \`triggerData\`, replaced by each call ({} when the call has no body), and the dialog can show it as {{triggerData.someField}}.`,
  content: {
    'application/json': {
      schema: { type: 'object', additionalProperties: true },
      examples: { transaction: { value: { transactionId: 'T-1001', amount: 42 } } },
    },
  },
};

const addressParameter = (definition: BotDefinition) => ({
  name: 'address_base64',
  in: 'path',
  required: true,
  description:
    'The user address {"bot","user","channelId"[,"conversation"]} as JSON, base64-encoded: standard or URL-safe alphabet, padding optional, percent-encoded or not (a standard-alphabet "/" must arrive as %2F).',
  // The alphabet only: that the text decodes to an address is a rule no pattern can state (a 400 invalid_address).
  schema: { type: 'string', minLength: 2, pattern: '^[A-Za-z0-9+/_-]+={0,2}$' },
  examples: {
    webchat: {
      value: Buffer.from(JSON.stringify({ bot: definition.settings.id, user: 'u-1', channelId: 'webchat' })).toString(
        'base64url',
      ),
    },
  },
});

/** The bot's dialogs, listed: the document is this bot's, and any other id is a 404 dialog_not_found. */
const dialogParameter = (definition: BotDefinition) => ({
  name: 'dialog_id',
  in: 'path',
  required: true,
  description: "The dialog to start: one of this bot's dialogs (any other id is a 404 dialog_not_found).",
  schema: { type: 'string', enum: definition.dialogs.map((d) => d.id) },
});

function triggerOperation(definition: BotDefinition, operationId: string, withMode: boolean): Obj {
  return {
    operationId,
    tags: ['Trigger'],
    summary: withMode ? 'Start a dialog for a user, clearing their position first' : 'Start a dialog for a user',
    description:
      'Checks every part of the request, stores the trigger as a durable job, answers 202, then starts the dialog for the user (creating the user if new). ' +
      (withMode
        ? "mode `clear` first deletes the user's position in the conversation tree; any other mode is a 400. "
        : '') +
      "The dialog's messages reach the user live when connected, by their REST channel's callback URL when it has one, otherwise on their next connect (or GET …/messages), in order; `delivery` says which.",
    parameters: [
      addressParameter(definition),
      dialogParameter(definition),
      ...(withMode
        ? [
            {
              name: 'mode',
              in: 'path',
              required: true,
              description: 'Only `clear` is supported.',
              schema: { type: 'string', enum: ['clear'] },
            },
          ]
        : []),
    ],
    requestBody: triggerBody,
    responses: triggerResponses,
  };
}

/** The management API's OpenAPI 3.1 document, for this server's bot (userData fields come from its definition). */
export function openApiDocument(definition: BotDefinition): Obj {
  const paths: Obj = {};
  for (const name of EXPORT_NAMES) paths[`/api/management/export/${name}`] = { get: exportOperation(definition, name) };
  paths['/api/management/trigger/{address_base64}/{dialog_id}'] = {
    post: triggerOperation(definition, 'trigger', false),
  };
  paths['/api/management/trigger/{address_base64}/{dialog_id}/{mode}'] = {
    post: triggerOperation(definition, 'triggerWithMode', true),
  };
  paths['/api/trigger/{bot_id}/{dialog_id}'] = {
    post: {
      operationId: 'triggerShort',
      tags: ['Trigger'],
      summary: 'Start a dialog for a web chat user (short form)',
      description:
        'The short form the spec shows for an external system reporting the outcome of a long operation. Same behaviour as the long form, user from `userId`, channel `webchat`, no mode.',
      parameters: [
        {
          name: 'bot_id',
          in: 'path',
          required: true,
          description: "This server's bot id; any other is a 404 bot_not_found.",
          schema: { type: 'string', enum: [definition.settings.id] },
        },
        dialogParameter(definition),
        {
          name: 'userId',
          in: 'query',
          required: true,
          description: 'The user to start the dialog for.',
          schema: { type: 'string', minLength: 1, maxLength: 256 },
        },
      ],
      requestBody: triggerBody,
      responses: triggerResponses,
    },
  };
  paths['/api/management/users/{userId}'] = {
    delete: {
      operationId: 'eraseUser',
      tags: ['Personal data'],
      summary: 'Erase everything held about a user',
      description:
        'Beyond the spec: the right to erasure. Removes, on whichever store the server uses, the user row (position, variables, user data), the whole transcript, every log row naming the user (user-data snapshots, NLP, e-mail, SMS, fuzzy answers, integration calls, URL clicks) and their durable jobs (timers, queued triggers, integration calls, channel callbacks). The answer counts what was removed. Idempotent: erasing a user again, or one never seen, answers 200 with zeros. A web chat still open for the user is not closed: its next message is refused with an error, and when it connects again (a reload) it starts a new conversation under the same id.',
      parameters: [
        {
          name: 'userId',
          in: 'path',
          required: true,
          description: "The user's id, as in the exports.",
          schema: { type: 'string', minLength: 1, maxLength: 256 },
        },
      ],
      responses: {
        '200': {
          description: 'What was erased.',
          content: { 'application/json': { schema: ref('schemas/ErasureReport') } },
        },
        '400': error('invalid_parameter: the user id is empty or longer than 256 characters.'),
        ...managementErrors,
      },
    },
  };
  paths['/metrics'] = {
    get: {
      operationId: 'metrics',
      tags: ['Operations'],
      summary: 'Prometheus metrics',
      // With METRICS_TOKEN: the bearer token. Without: none on a loopback-only server, else the function key.
      security: [{ metricsToken: [] }, { functionKeyHeader: [] }, { functionKeyQuery: [] }, {}],
      description:
        'Beyond the spec. Prometheus text format: chatbot_http_requests_total and chatbot_http_request_duration_seconds (by method, route, status), chatbot_connected_users, chatbot_messages_total (by sender), chatbot_integration_calls_total and chatbot_integration_errors_total (by step type and service), chatbot_build_info (always 1: version, node_version, store), plus the Node process defaults and the series README lists. Needs METRICS_TOKEN as a bearer token when set; without it, it is open when the server listens on loopback only, and needs the function key otherwise.',
      responses: {
        '200': { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...managementErrors,
      },
    },
  };
  paths['/api/management/openapi.json'] = {
    get: {
      operationId: 'openApiDocument',
      tags: ['Operations'],
      summary: 'This document',
      description: 'Public (no key): it holds no secrets. The rendered page is at /api/management/docs.',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '429': ref('responses/RateLimited'),
      },
    },
  };

  Object.assign(paths, auditPaths());
  Object.assign(paths, channelPaths());
  Object.assign(paths, webhookPaths(), vendorWebhookPaths());
  const studio = studioPaths();
  Object.assign(paths, studio.paths);
  Object.assign(paths, subscriptionPaths());

  const schemas: Obj = {
    Error: errorSchema,
    TriggerAccepted: triggerAcceptedSchema,
    ErasureReport: erasureReportSchema,
    ...messageSchemas,
    AuditRecord: auditRecordSchema,
    ...studio.schemas,
    ...subscriptionSchemas(),
  };
  for (const [name, schema] of Object.entries(recordSchemas(definition))) schemas[`${name}Record`] = schema;

  return {
    openapi: '3.1.0',
    info: {
      title: `Management API of bot "${definition.settings.id}"`,
      version: '1.0.0',
      summary: 'Export user data and logs; start dialogs from outside.',
      description: [
        'The export and trigger endpoints of the chatbot interface spec (sections 4.1, 4.2, 5.1), with the choices the spec leaves open:',
        "- Every call carries the bot's function key in the `x-functions-key` header or the `code` query parameter. It is compared in constant time; a missing and a wrong key get the same 401. It is never logged, and never echoed into Link headers.",
        '- Errors: `{"error":{"code","message","details"}}` with the codes listed in the Error schema. A wrong method on a known path is 405 `method_not_allowed` with an Allow header; an unknown path is 404 `not_found`.',
        '- Rate limit per client IP over all management endpoints (MANAGEMENT_RATE_LIMIT requests a minute): 429 `rate_limited` with Retry-After (seconds).',
        '- Timestamps in records are ISO 8601 UTC with milliseconds; fromTimestamp/toTimestamp are integer UNIX seconds, half-open `from <= t < to`, so consecutive daily windows never repeat or miss a record.',
        '- Paging beyond the spec: `limit` (1..10000) and the opaque `cursor` from X-Next-Cursor. Formats beyond the spec: NDJSON (Accept: application/x-ndjson or format=ndjson) and CSV (format=csv).',
        '- A request that fails changes no data.',
      ].join('\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: "This bot's {base_url}." }],
    security: [{ functionKeyHeader: [] }, { functionKeyQuery: [] }],
    tags: [
      { name: 'Export', description: 'User data and logs, for analytics (spec 4.1).' },
      { name: 'Trigger', description: 'Start a dialog for a user from an external system (spec 4.2).' },
      { name: 'Operations', description: 'Beyond the spec: metrics and this document.' },
      { name: 'Personal data', description: 'Beyond the spec: erase what the bot holds about one person.' },
      { name: 'Audit', description: "Beyond the spec: the studio's audit trail, exported like the logs." },
      {
        name: 'Studio: people',
        description:
          "The studio's sign-in, one-time setup links, sessions, accounts and roles, API tokens, write-only secrets and the audit trail. People sign in to the studio; programs use an account's API token. The function key does not open it.",
      },
      {
        name: 'Studio: versions',
        description:
          "The studio's API for the bot's versions: drafts, saves, the publish plan, publish and rollback, import and export. People sign in to the studio; programs (chatbot pull/push, CI) use an account's API token. The function key does not open it.",
      },
      {
        name: 'Studio: insights',
        description:
          "The studio's insights: the dashboard, reach and drop-off per step, the conversation search and one user's transcript. Personal data: owners and analysts only.",
      },
      {
        name: 'Subscriptions',
        description:
          'Beyond the spec: event subscriptions (REST hooks) for automation platforms. Subscribe a URL to event kinds; each event is POSTed there, signed, in order, retried, replayable. The webhooks section shows what each delivery holds.',
      },
      {
        name: 'Channels',
        description:
          "The generic bot REST channel (spec 1.4): a channel sends a user's messages and events and reads the bot's replies; what the bot says later is POSTed to its callback URL, signed. Its own key (x-channel-key) and rate limit (REST_CHANNEL_RATE_LIMIT).",
      },
      {
        name: 'Channel webhooks',
        description:
          "Where messaging vendors post their users' messages (docs/channels.md): each checked with the vendor's secret, stored once under the vendor's event id, answered 200 at once; the turn runs from the durable job queue.",
      },
    ],
    paths,
    webhooks: { ...channelWebhooks(), ...subscriptionWebhooks() },
    components: {
      securitySchemes: {
        functionKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'x-functions-key',
          description: "The bot's function key (BOT_FUNCTION_KEY).",
        },
        functionKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'code',
          description: 'The same key in the query string.',
        },
        channelKey: channelKeyScheme,
        telegramSecret: telegramSecretScheme,
        botFrameworkToken: botFrameworkTokenScheme,
        metaSignature: metaSignatureScheme,
        twilioSignature: twilioSignatureScheme,
        slackSignature: slackSignatureScheme,
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics only.' },
        studioSession: {
          type: 'apiKey',
          in: 'cookie',
          name: '__Host-studio',
          description:
            'A studio session (studio_session without TLS); writes also need the X-CSRF-Token header from GET /studio/api/session.',
        },
        studioToken: {
          type: 'http',
          scheme: 'bearer',
          description: "An API token of a studio account (chatbot pull/push, CI); carries the account's role.",
        },
      },
      parameters: {
        fromTimestamp: {
          name: 'fromTimestamp',
          in: 'query',
          required: false,
          description: 'Lower bound (inclusive), UNIX seconds. Anything but a non-negative integer is a 400.',
          schema: { type: 'integer', minimum: 0, maximum: MAX_TIMESTAMP },
        },
        toTimestamp: {
          name: 'toTimestamp',
          in: 'query',
          required: false,
          description: 'Upper bound (exclusive), UNIX seconds; must not be below fromTimestamp.',
          schema: { type: 'integer', minimum: 0, maximum: MAX_TIMESTAMP },
        },
        limit: {
          name: 'limit',
          in: 'query',
          required: false,
          description: `Page size, 1..${MAX_LIMIT}. Without it the whole range streams in one response.`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
        },
        cursor: {
          name: 'cursor',
          in: 'query',
          required: false,
          description:
            'The X-Next-Cursor of the previous page, unchanged (the nextPage link of the 200 response). Cursors are opaque, URL-safe base64, and bound to their export: any other value is a 400 invalid_parameter.',
          schema: { type: 'string', minLength: 1, pattern: '^[A-Za-z0-9_-]+$' },
        },
        format: {
          name: 'format',
          in: 'query',
          required: false,
          description: 'json (default), ndjson or csv. Overrides the Accept header.',
          schema: { type: 'string', enum: ['json', 'ndjson', 'csv'] },
        },
        bom: {
          name: 'bom',
          in: 'query',
          required: false,
          description:
            'CSV only (format=csv; with another format it is a 400): true (default) starts the file with a UTF-8 byte order mark, so Excel shows accents right; false leaves it out, for programs that do not expect one.',
          schema: { type: 'string', enum: ['true', 'false'] },
        },
        csvFormulaGuard: {
          name: 'csvFormulaGuard',
          in: 'query',
          required: false,
          description:
            'CSV only (format=csv): true (default) prefixes text cells starting with = + - @ (or tab/CR) with a single quote so spreadsheets do not run them; false writes them unchanged (phone numbers such as +48123456789 stay as they are; open the file only in a program you trust with such cells).',
          schema: { type: 'string', enum: ['true', 'false'] },
        },
        notEmpty: {
          name: 'notEmpty',
          in: 'query',
          required: false,
          description:
            'Comma-separated user-data fields (camelCase, case-insensitive) that must all be non-empty. Missing, null, "", [] and {} count as empty.',
          schema: { type: 'string' },
        },
      },
      responses: {
        Unauthorized: error('unauthorized: the function key is missing or wrong (the same answer for both).'),
        RateLimited: {
          description: 'rate_limited: too many requests from this client; retry after the given number of seconds.',
          headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
          content: { 'application/json': { schema: ref('schemas/Error') } },
        },
        Internal: error('internal: something failed on the server; the body names a request id to quote.'),
      },
      schemas,
    },
  };
}
