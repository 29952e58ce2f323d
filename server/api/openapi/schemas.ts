import type { BotDefinition } from '../../definition/schema.ts';
import { LOG_FIELDS, TRANSCRIPT_FIELDS } from '../../app/export-records.ts';
import { STUDIO_PEOPLE_ERROR_CODES } from './studio-people-words.ts';
import { STUDIO_VERSIONS_ERROR_CODES } from './studio-versions-words.ts';

type Schema = Record<string, unknown>;

const nullable = (type: string | string[], description: string, extra: Schema = {}): Schema => ({
  type: [...(Array.isArray(type) ? type : [type]), 'null'],
  description,
  ...extra,
});
const anyJson = (description: string): Schema => ({ description: `${description} Any JSON value, or null.` });

const base: Record<string, Schema> = {
  userId: { type: 'string', description: 'The user the record is about.' },
  timestamp: {
    type: 'string',
    format: 'date-time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
    description: 'ISO 8601 UTC with milliseconds, e.g. 2026-11-21T09:36:51.123Z.',
    examples: ['2026-11-21T09:36:51.123Z'],
  },
};

/** Field schemas of the log records (spec section 2). Writers other than this API fill them, so types are stated loosely. */
const LOG_FIELD_SCHEMAS: Record<string, Schema> = {
  dialogId: nullable('string', 'Dialog the user was in.'),
  stepId: nullable('string', 'Step that produced the record.'),
  stepType: nullable('string', 'Type of that step.'),
  query: nullable('string', 'What the user wrote.'),
  modelId: nullable('string', 'NLP model that was asked, if any.'),
  intent: nullable('string', 'Intent recognised, if any.'),
  result: anyJson('What the model answered.'),
  processed: nullable('boolean', 'Whether the tree could use the input (false for the inputs this log exists for).'),
  body: nullable('string', 'Message body.'),
  from: nullable('string', 'Sender address.'),
  recipients: anyJson('Recipients: a list of addresses or numbers.'),
  replyTo: nullable('string', 'Reply-To address.'),
  subject: nullable('string', 'Subject line.'),
  channel: nullable('string', 'SMS channel.'),
  link: nullable('string', 'Link sent in the message.'),
  message: nullable('string', 'Text of the SMS.'),
  provider: nullable('string', 'SMS provider.'),
  score: nullable('number', 'Confidence of the best match.'),
  text: nullable('string', 'The utterance.'),
  matched: nullable('boolean', 'Whether a question matched.'),
  otherClassifications: anyJson('Other candidate answers with their scores.'),
  url: nullable('string', 'Called or clicked URL.'),
  method: nullable('string', 'HTTP method.'),
  requestBody: anyJson('Request body sent; secrets replaced by "[redacted]".'),
  requestHeaders: anyJson(
    'Request headers sent; Authorization, Cookie, x-functions-key and API-key headers replaced by "[redacted]".',
  ),
  responseStatus: nullable('integer', 'HTTP status received.'),
  responseBody: anyJson('Response body received; secrets replaced by "[redacted]".'),
  duration: nullable('number', 'Duration of the call in milliseconds.'),
  domain: nullable('string', 'Domain of the clicked URL.'),
};

function record(
  title: string,
  description: string,
  fields: readonly string[],
  fieldSchema: (field: string) => Schema,
): Schema {
  const properties: Record<string, Schema> = { ...base };
  for (const field of fields) properties[field] = fieldSchema(field);
  return {
    title,
    description,
    type: 'object',
    additionalProperties: false,
    required: ['userId', 'timestamp', ...fields],
    properties,
  };
}

/** One schema per export record, named for the export; userData fields come from the bot definition. */
export function recordSchemas(definition: BotDefinition): Record<string, Schema> {
  const userField = (field: string) =>
    anyJson(`User-data storage "${field}" of this bot; null when the user has no value.`);
  const schemas: Record<string, Schema> = {
    userData: record(
      'User data',
      'One known user: timestamp is the time of their last message (when they first were stored, if they never wrote), then one field per user-data storage the bot declares.',
      definition.userDataFields,
      userField,
    ),
    userDataSnapshot: record(
      'User data snapshot',
      'The user data as it was when a "clear user data" action ran; timestamp is that moment.',
      definition.userDataFields,
      userField,
    ),
  };
  const titles: Record<keyof typeof LOG_FIELDS, [string, string]> = {
    nlpLog: ['NLP log', 'An input the conversation tree could not process.'],
    outgoingEmail: ['Outgoing email', 'An email the bot sent.'],
    outgoingSms: ['Outgoing SMS', 'An SMS the bot sent.'],
    fuzzyQuestionAnswerLog: ['Fuzzy question answer log', 'An utterance the fuzzy question answer plugin processed.'],
    integrationLog: ['Integration log', 'One integration invocation.'],
    urlTracker: ['URL tracker', 'One click on a URL button.'],
  };
  schemas.transcript = {
    title: 'Transcript entry',
    description:
      "One message of a user's conversation, from the user or the bot; timestamp is when it was stored. In CSV, one column per field, `message` (JSON) last.",
    type: 'object',
    additionalProperties: false,
    required: ['userId', 'timestamp', ...TRANSCRIPT_FIELDS],
    properties: {
      userId: { type: 'string' },
      timestamp: base.timestamp,
      seq: {
        type: 'integer',
        minimum: 1,
        description: 'Per-user sequence number: 1, 2, 3, … in the order the user saw the messages.',
      },
      from: { type: 'string', enum: ['user', 'bot'] },
      kind: nullable(
        'string',
        "The message's type: text, image, carousel, notice or event from the bot; text, postback (a pressed button) or dialog (a pressed dialog button) from the user.",
        { examples: ['text'] },
      ),
      text: nullable(
        'string',
        "What a person reads: the text (of a text or notice), a pressed button's label, an image's alternative text, a carousel's card titles joined by \" | \", an event's name.",
      ),
      dialogId: nullable(
        'string',
        "The dialog of the step that said a bot message; null for the user's, and for messages stored before this was recorded.",
      ),
      stepId: nullable('string', 'The step that said a bot message; null as dialogId is.'),
      message: {
        anyOf: [{ $ref: '#/components/schemas/BotMessage' }, { $ref: '#/components/schemas/UserMessage' }],
        description: 'The message itself, as every channel carries it.',
      },
    },
  };
  for (const [name, fields] of Object.entries(LOG_FIELDS) as [keyof typeof LOG_FIELDS, readonly string[]][]) {
    const [title, description] = titles[name];
    schemas[name] = record(title, description, fields, (field) => LOG_FIELD_SCHEMAS[field] ?? anyJson(field));
  }
  return schemas;
}

export const ERROR_CODES = [
  'invalid_parameter',
  'invalid_address',
  'invalid_body',
  'unauthorized',
  'not_found',
  'bot_not_found',
  'dialog_not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  /** REST channel: an event kind other than setUserData, startDialog, pageEvent. */
  'unknown_event',
  'rate_limited',
  /** Event subscriptions: a target URL the integration client may not call (private address, not in INTEGRATION_ALLOWED_HOSTS). */
  'forbidden_destination',
  /** Event subscriptions: as many as a bot may have. */
  'limit_reached',
  /** Triggers to a WhatsApp user (Cloud API or through Twilio) who has not written in the last 24 hours. */
  'whatsapp_window_closed',
  /** Triggers to an SMS number that texted STOP. */
  'sms_opted_out',
  /** Triggers to a Teams user the bot has no conversation with (never installed, never wrote). */
  'teams_no_conversation',
  'internal',
  /** The studio. */
  'unauthenticated',
  'forbidden',
  'csrf_failed',
  ...STUDIO_PEOPLE_ERROR_CODES,
  ...STUDIO_VERSIONS_ERROR_CODES,
] as const;

export const errorSchema: Schema = {
  title: 'Error',
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...ERROR_CODES], description: 'Stable code from the error catalogue.' },
        message: { type: 'string', description: 'A sentence a person can act on.' },
        details: {
          type: 'object',
          description: 'Machine-readable specifics: the offending parameter, known fields, a request id.',
        },
        requestId: {
          type: 'string',
          description:
            "The id of this request, as in the X-Request-Id response header and the server's log lines: quote it when reporting a problem.",
        },
      },
    },
  },
};

const countSchema = { type: 'integer', minimum: 0 };

export const erasureReportSchema: Schema = {
  title: 'Erasure report',
  type: 'object',
  additionalProperties: false,
  required: ['userId', 'erased'],
  properties: {
    userId: { type: 'string' },
    erased: {
      type: 'object',
      additionalProperties: false,
      required: ['user', 'transcript', 'logs', 'jobs'],
      properties: {
        user: {
          type: 'integer',
          minimum: 0,
          description:
            'User rows removed: 1 for the user; one more for each channel address linked with theirs (one conversation across channels); 0 when there was none (already erased, or never seen).',
        },
        transcript: { ...countSchema, description: 'Messages removed.' },
        logs: {
          type: 'object',
          description: 'Log rows removed, by export name (userDataSnapshot included); every kind is listed.',
          additionalProperties: countSchema,
        },
        jobs: {
          ...countSchema,
          description: 'Durable jobs removed: timers, queued triggers, integration calls, channel callbacks.',
        },
      },
    },
  },
};

export const triggerAcceptedSchema: Schema = {
  title: 'Trigger accepted',
  type: 'object',
  additionalProperties: false,
  required: ['userId', 'dialogId', 'mode', 'delivery'],
  properties: {
    userId: { type: 'string' },
    dialogId: { type: 'string' },
    mode: { type: ['string', 'null'], enum: ['clear', null] },
    delivery: {
      type: 'string',
      enum: ['live', 'callback', 'queued'],
      description:
        'live: the user is connected now (a web chat widget, or a REST channel request of theirs still open) and gets the messages at once. callback: the user is on a REST channel with a callbackUrl, which gets the messages POSTed, signed, in order. queued: they are stored and delivered, in order, on the next connect (a REST channel without a callbackUrl reads them with GET …/messages).',
    },
  },
};
