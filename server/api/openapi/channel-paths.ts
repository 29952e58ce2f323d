import { MAX_JSON_DEPTH } from '../../../shared/json-bounds.ts';

type Obj = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/${name}` });
const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('schemas/Error') } } });
const security = [{ channelKey: [] }];

const parameters = [
  { name: 'channel', in: 'path', required: true, description: 'The channel\'s name as configured in REST_CHANNELS (its channelId in user addresses). An unknown name is a 404 not_found.', schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' } },
  { name: 'user', in: 'path', required: true, description: 'The channel\'s own id for the user (the address\'s `user`). A user id belongs to one channel: another channel\'s user is a 404 not_found.', schema: { type: 'string', minLength: 1, maxLength: 256 } },
];

const clientId = { type: 'string', minLength: 1, maxLength: 128, description: 'The channel\'s id for this message or event: sending it again never stores or runs it twice, and is answered with the same replies (`duplicate: true`).' };
const record = { type: 'object', additionalProperties: true };

/** What a channel may POST, as a JSON Schema: the same kinds the web chat sends. */
const inbound = {
  oneOf: [
    { title: 'Text', type: 'object', additionalProperties: false, required: ['type', 'clientId', 'text'], properties: { type: { const: 'text' }, clientId, text: { type: 'string', minLength: 1, description: 'At most 4096 UTF-8 bytes.' } } },
    { title: 'Button', type: 'object', additionalProperties: false, required: ['type', 'clientId', 'label', 'payload'], properties: { type: { const: 'button' }, clientId, label: { type: 'string', maxLength: 256 }, payload: { type: 'string', minLength: 1, maxLength: 1024 } }, description: 'A pressed postback button or quick reply: the label shown and the payload the bot sent.' },
    { title: 'Dialog button', type: 'object', additionalProperties: false, required: ['type', 'clientId', 'label', 'dialogId'], properties: { type: { const: 'dialog' }, clientId, label: { type: 'string', maxLength: 256 }, dialogId: { type: 'string' } } },
    { title: 'setUserData event', type: 'object', additionalProperties: false, required: ['type', 'clientId', 'event', 'fields'], properties: { type: { const: 'event' }, clientId, event: { const: 'setUserData' }, fields: record }, description: 'Declared user-data fields are saved as user data (exported); the rest become conversation variables.' },
    { title: 'startDialog event', type: 'object', additionalProperties: false, required: ['type', 'clientId', 'event', 'dialogId'], properties: { type: { const: 'event' }, clientId, event: { const: 'startDialog' }, dialogId: { type: 'string' }, data: record }, description: '`data` becomes the variable `pageData`.' },
    { title: 'pageEvent event', type: 'object', additionalProperties: false, required: ['type', 'clientId', 'event', 'name'], properties: { type: { const: 'event' }, clientId, event: { const: 'pageEvent' }, name: { type: 'string', minLength: 1, maxLength: 128 }, payload: record }, description: 'The bot definition decides what it does (`pageEvents`, a wait step\'s cancelOn).' },
  ],
};

const item = {
  type: 'object',
  required: ['seq', 'from', 'at', 'clientId', 'message'],
  properties: {
    seq: { type: 'integer', minimum: 1, description: 'Per-user sequence number: orders and deduplicates; pass the last one seen as `after`.' },
    from: { enum: ['user', 'bot'] },
    at: { type: 'string', format: 'date-time' },
    clientId: { type: ['string', 'null'] },
    message: { type: 'object', description: 'The shared structured message: text (with buttons and quick replies), image, carousel or notice for the bot; text, postback or dialog for the user. A bot → page event is an event message {"type":"event","name","payload"}, stored with its seq after the turn\'s other messages.' },
  },
};
const botEvent = { type: 'object', required: ['name', 'payload'], properties: { name: { type: 'string' }, payload: record }, description: 'An event step of the bot (on the web chat it runs a listener of the page); each is also an event message in `messages`.' };

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
        summary: 'Send a user\'s message, button or event; get the bot\'s replies',
        description:
          `The body is at most 64 KiB, nested at most ${MAX_JSON_DEPTH} levels. The user is created on first contact (the bot's start dialog runs first). ` +
          'The answer holds what the bot said in this turn, in order, sync integration steps included, waiting at most REST_CHANNEL_ANSWER_WAIT (10 s); `complete: false` means the rest comes by callback (or GET). ' +
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
                    seq: { type: 'integer', description: 'The stored message\'s seq (text and buttons).' },
                    duplicate: { type: 'boolean', description: 'True when this clientId was sent before: nothing ran again, and `messages` are the replies that followed it then (`events` are not repeated).' },
                    messages: { type: 'array', items: item },
                    events: { type: 'array', items: botEvent },
                    complete: { type: 'boolean', description: 'False when the bot was still working after REST_CHANNEL_ANSWER_WAIT (10 s).' },
                  },
                },
              },
            },
          },
          '400': error('invalid_body (not JSON, wrong shape, too deep), unknown_event or invalid_parameter.'),
          '401': error('unauthorized: the x-channel-key header is missing or wrong (the same answer for both).'),
          '404': error('not_found (no such channel, or the user belongs to another channel) or dialog_not_found.'),
          '413': error('payload_too_large: the body is over 64 KiB.'),
          '415': error('unsupported_media_type: send the body as application/json.'),
          '429': ref('responses/RateLimited'),
          '500': ref('responses/Internal'),
        },
      },
      get: {
        operationId: 'channelMissed',
        tags: ['Channels'],
        security,
        summary: 'What the channel missed',
        description: 'The user\'s transcript after `after` (both sides, at most 500 entries), for channels that poll instead of taking callbacks.',
        parameters: [...parameters, { name: 'after', in: 'query', required: false, description: 'The last seq the channel has; 0 or absent for everything.', schema: { type: 'integer', minimum: 0 } }],
        responses: {
          '200': { description: 'Entries in seq order.', content: { 'application/json': { schema: { type: 'object', required: ['messages'], properties: { messages: { type: 'array', items: item } } } } } },
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

/** The channel key's security scheme. */
export const channelKeyScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'x-channel-key',
  description: 'The channel\'s own key from REST_CHANNELS (never the function key); during a rotation its keyPrevious is accepted too. Compared in constant time, never logged. Callbacks to the channel are signed with it: x-signature = "sha256=" + hex HMAC-SHA256(key, x-timestamp + "." + body).',
};
