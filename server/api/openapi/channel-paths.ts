import { MAX_JSON_DEPTH } from '../../../shared/json-bounds.ts';

import { error, ref, type Obj } from './operation-parts.ts';
const security = [{ channelKey: [] }];

const parameters = [
  {
    name: 'channel',
    in: 'path',
    required: true,
    description:
      "The channel's name as configured in REST_CHANNELS (its channelId in user addresses). An unknown name is a 404 not_found.",
    schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
  },
  {
    name: 'user',
    in: 'path',
    required: true,
    description:
      "The channel's own id for the user (the address's `user`). A user id belongs to one channel: another channel's user is a 404 not_found.",
    schema: { type: 'string', minLength: 1, maxLength: 256 },
  },
];

const clientId = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description:
    "The channel's id for this message or event: sending it again never stores or runs it twice, and is answered with the same replies (`duplicate: true`).",
};
const record = { type: 'object', additionalProperties: true };

/**
 * One kind of message a channel may POST: a closed object told apart by `type`, carrying the
 * channel's clientId; every property is required but the `optional` ones.
 */
const inboundKind = (
  title: string,
  type: string,
  properties: Obj,
  { description, optional = [] }: { description?: string; optional?: string[] } = {},
) => {
  const all = { type: { const: type }, clientId, ...properties };
  return {
    title,
    type: 'object',
    additionalProperties: false,
    required: Object.keys(all).filter((name) => !optional.includes(name)),
    properties: all,
    ...(description === undefined ? {} : { description }),
  };
};

/** What a channel may POST, as a JSON Schema: the same kinds the web chat sends. */
const inbound = {
  oneOf: [
    inboundKind('Text', 'text', { text: { type: 'string', minLength: 1, description: 'At most 4096 UTF-8 bytes.' } }),
    inboundKind(
      'Button',
      'button',
      { label: { type: 'string', maxLength: 256 }, payload: { type: 'string', minLength: 1, maxLength: 1024 } },
      { description: 'A pressed postback button or quick reply: the label shown and the payload the bot sent.' },
    ),
    inboundKind('Dialog button', 'dialog', { label: { type: 'string', maxLength: 256 }, dialogId: { type: 'string' } }),
    inboundKind(
      'setUserData event',
      'event',
      { event: { const: 'setUserData' }, fields: record },
      {
        description:
          'Declared user-data fields are saved as user data (exported); the rest become conversation variables.',
      },
    ),
    inboundKind(
      'startDialog event',
      'event',
      { event: { const: 'startDialog' }, dialogId: { type: 'string' }, data: record },
      { description: '`data` becomes the variable `pageData`.', optional: ['data'] },
    ),
    inboundKind(
      'pageEvent event',
      'event',
      { event: { const: 'pageEvent' }, name: { type: 'string', minLength: 1, maxLength: 128 }, payload: record },
      {
        description: "The bot definition decides what it does (`pageEvents`, a wait step's cancelOn).",
        optional: ['payload'],
      },
    ),
  ],
};

const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const item = schema('TranscriptItem');
const botEvent = schema('BotEvent');

/** The generic bot REST channel's endpoints (spec 1.4), documented beside the management API. */
export function channelPaths(): Obj {
  return {
    // Parameters on each operation, not the path item: tools that walk operations (the fuzz test) see them there.
    '/api/channels/{channel}/users/{user}/messages': {
      post: {
        operationId: 'channelSend',
        tags: ['Channels'],
        security,
        parameters,
        summary: "Send a user's message, button or event; get the bot's replies",
        description:
          `The body is at most 64 KiB, nested at most ${MAX_JSON_DEPTH} levels, in UTF-8. The user is created on first contact (the bot's start dialog runs first, and its greeting leads the answer). ` +
          "The answer holds what the bot said in this turn, in order, sync integration steps included. Once the message is stored (or the event has run), it comes at most REST_CHANNEL_ANSWER_WAIT (10 s) after the request arrived, also when the request first waited behind the same user's earlier one; `complete: false` means the message is stored and the rest comes by callback (or GET). " +
          "A message not stored by the end of that wait (the store is slow, or the user's earlier turn still runs, such as a sync integration call) is waited for until it is stored, and is then answered with its `seq`; at the latest TURN_DEADLINE (15 s) after the wait (25 s after arrival by default) it is refused with 503 store_timeout and is not stored after. Let an HTTP client wait longer than the two together. " +
          'A request sent again with the same clientId runs nothing again and is answered with the same replies as the first (`duplicate: true`), the greeting included when the first opened the conversation; while the first is still running it waits for that one, within its own bound. ' +
          'A refused request stores nothing.',
        requestBody: { required: true, content: { 'application/json': { schema: inbound } } },
        responses: {
          '200': {
            description: 'The turn ran (or, for a resent clientId, had run).',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['messages', 'events', 'complete'],
                  properties: {
                    seq: {
                      type: 'integer',
                      minimum: 1,
                      description:
                        "The stored message's seq (text, button and dialog button; events have none). Present in every 200 answer to a message, `complete: false` included: a message is answered once it is stored, or refused.",
                    },
                    duplicate: {
                      type: 'boolean',
                      description:
                        "True when this clientId was sent before: nothing ran again, and `messages` are the replies that followed it then, the start dialog's greeting too when that request opened the conversation (`events` are not repeated).",
                    },
                    messages: { type: 'array', items: item },
                    events: { type: 'array', items: botEvent },
                    complete: {
                      type: 'boolean',
                      description:
                        'False when the bot was still working REST_CHANNEL_ANSWER_WAIT (10 s) after the request arrived, or when the message was stored only after that wait: the message is stored, and the rest comes by callback, or with GET.',
                    },
                  },
                },
              },
            },
          },
          '400': error(
            'invalid_body (not UTF-8, not JSON, wrong shape, text over 4096 bytes, too deep), unknown_event or invalid_parameter.',
          ),
          '401': error('unauthorized: the x-channel-key header is missing or wrong (the same answer for both).'),
          '404': error('not_found (no such channel, or the user belongs to another channel) or dialog_not_found.'),
          '413': error('payload_too_large: the body is over 64 KiB.'),
          '415': error('unsupported_media_type: send the body as application/json.'),
          '429': ref('responses/RateLimited'),
          '500': ref('responses/Internal'),
          '503': error(
            "store_timeout: the message could not be stored within TURN_DEADLINE (15 s) of its turn's start, or of the end of the answer wait if it still waited behind the same user's earlier turn then, as when the store is slow or unreachable; nothing of it was written after that (an event may still run: its resend is then answered `duplicate: true`). Send it again with the same clientId: it is stored once.",
          ),
        },
      },
      get: {
        operationId: 'channelMissed',
        tags: ['Channels'],
        security,
        summary: 'What the channel missed',
        description:
          "The user's transcript after `after` (both sides, at most 500 entries), for channels that poll instead of taking callbacks.",
        parameters: [
          ...parameters,
          {
            name: 'after',
            in: 'query',
            required: false,
            description: 'The last seq the channel has; 0 or absent for everything.',
            schema: { type: 'integer', minimum: 0 },
          },
        ],
        responses: {
          '200': {
            description: 'Entries in seq order.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['messages'],
                  properties: { messages: { type: 'array', items: item } },
                },
              },
            },
          },
          '400': error('invalid_parameter: after is not a whole number.'),
          '401': error('unauthorized: the x-channel-key header is missing or wrong.'),
          '404': error('not_found: no such channel, or the user belongs to another channel.'),
          '429': ref('responses/RateLimited'),
          '500': ref('responses/Internal'),
        },
      },
    },
  };
}

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

/**
 * What the server sends to a channel's callbackUrl, as an OpenAPI 3.1 webhook: the
 * request's headers, how its signature is made and checked, its body, and the answers
 * it expects back.
 */
export function channelWebhooks(): Obj {
  return {
    channelCallback: {
      post: {
        operationId: 'channelCallback',
        tags: ['Channels'],
        summary: "The bot speaks on its own (sent to the channel's callbackUrl)",
        description:
          "Sent by the server to the `callbackUrl` of a REST channel when the bot says something outside a request of the channel: a wait step's timer, a trigger, an asynchronous result, or what a turn said after its request was answered (`complete: false`). " +
          'Check the signature over the raw body before parsing it: `x-signature` is `sha256=` followed by hex HMAC-SHA256 with the channel\'s `key` over `x-timestamp + "." + raw body`; compare in constant time and refuse a timestamp more than a few minutes old. ' +
          "Each callback is a durable job: an answer other than 2xx, or no answer within 10 s, is retried with backoff (1 s doubling to 5 min, 12 attempts, about 20 minutes); one user's callbacks arrive one after another, in seq order. Redirects are not followed. " +
          'The request leaves through the integration HTTP client, so INTEGRATION_ALLOWED_HOSTS applies: a callbackUrl on a private or loopback address (or a host not listed, when the list is set) is refused at once, not retried, and logged as `callback_refused` (start-up warns about it as `callback_url_refused`).',
        parameters: [
          header('x-timestamp', 'When the callback was signed, UNIX seconds.', '1795253811'),
          header(
            'x-signature',
            '`sha256=` + hex HMAC-SHA256(channel key, x-timestamp + "." + raw body).',
            'sha256=3f0a…',
          ),
          { name: 'content-type', in: 'header', required: true, schema: { type: 'string', const: 'application/json' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: schema('ChannelCallback') } } },
        responses: {
          '200': { description: 'Any 2xx: taken. Nothing is read from the body.' },
          default: {
            description:
              'Anything else (or no answer within 10 s): the callback is sent again later, with the same body and a new timestamp and signature.',
          },
        },
      },
    },
  };
}

/** The channel key's security scheme. */
export const channelKeyScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'x-channel-key',
  description:
    'The channel\'s own key from REST_CHANNELS (never the function key); during a rotation its keyPrevious is accepted too. Compared in constant time, never logged. Callbacks to the channel are signed with it: x-signature = "sha256=" + hex HMAC-SHA256(key, x-timestamp + "." + body).',
};
