import { error, type Obj } from './operation-parts.ts';
import { webhookPost } from './webhook-operation.ts';

const storedOnce =
  "Each message is stored once under the vendor's message id (a redelivery, however close, is answered 200 and changes nothing) with a durable job that runs its turn, and answered 200 at once: the turn never runs inside the request. A refused request stores nothing.";

/** Meta's webhook verification (a GET when the address is saved at Meta), the same for each of its products. */
const metaVerification = (operationId: string, product: string, setting: string) => ({
  operationId,
  tags: ['Channel webhooks'],
  summary: `Meta verifies the webhook address (when it is saved in the app's ${product} configuration)`,
  description: `Answers hub.challenge as plain text when hub.mode is subscribe and hub.verify_token equals ${setting} (compared in constant time).`,
  parameters: [
    { name: 'hub.mode', in: 'query', required: true, schema: { const: 'subscribe' } },
    { name: 'hub.verify_token', in: 'query', required: true, schema: { type: 'string' } },
    {
      name: 'hub.challenge',
      in: 'query',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
    },
  ],
  responses: {
    '200': { description: 'The challenge, echoed.', content: { 'text/plain': { schema: { type: 'string' } } } },
    '400': error(
      'invalid_parameter: not a subscription verification (hub.mode is not subscribe, or hub.challenge is missing or not 1 to 128 of A-Z a-z 0-9 _ -).',
    ),
    '403': error(`forbidden: hub.verify_token does not match ${setting}.`),
    '404': error(`not_found: the ${product} channel is not configured.`),
  },
});

/** What a signed POST of Meta's carries and how it is refused, the same for each of its products. */
const metaSignedPost = (object: string, appSecret: string, product: string) => ({
  scheme: 'metaSignature',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['object', 'entry'],
        properties: { object: { const: object }, entry: { type: 'array' } },
        additionalProperties: true,
      },
    },
  },
  responses: {
    '400': error('invalid_body: not UTF-8 or not JSON.'),
    '401': error('unauthorized: the X-Hub-Signature-256 header is missing.'),
    '403': error(`forbidden: the signature does not match the body signed with ${appSecret}.`),
    '404': error(`not_found: the ${product} channel is not configured.`),
    '413': error('payload_too_large: the body is over 1 MiB, or nested deeper than 32 levels.'),
  },
});

/** One of Twilio's webhooks (SMS or WhatsApp): the same form, signature and answers, told apart by channel. */
const twilioWebhook = (channel: 'twilio-sms' | 'twilio-whatsapp', what: string, from: string) => ({
  post: webhookPost({
    operationId: channel === 'twilio-sms' ? 'twilioSmsWebhook' : 'twilioWhatsAppWebhook',
    scheme: 'twilioSignature',
    summary: `Twilio posts ${what} or a status callback`,
    description:
      `Served when TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, ${from} and PUBLIC_URL are set (docs/channels.md). X-Twilio-Signature is checked over PUBLIC_URL + this path + the query string as sent (the address Twilio was given, not the one this server sees behind a proxy) and the sorted form parameters, in constant time. The form is at most 64 KiB. ` +
      `${storedOnce} The key is MessageSid. The user is \`{ "channelId": "${channel}", "user": "${channel}:<E.164 number>" }\`; their number reaches the dialog as \`phoneNumber\`${channel === 'twilio-whatsapp' ? ', their WhatsApp profile name as `whatsappName`' : ''} (user data when declared in userDataFields, else variables). ` +
      (channel === 'twilio-sms'
        ? 'A message that is only STOP, START, HELP or one of their aliases runs no dialog: Twilio answers it under the carrier rules (logged as sms_keyword). '
        : '') +
      'A status callback (MessageStatus queued, sent, delivered, undelivered, failed, read) is logged (twilio_status); a failed or undelivered one with its ErrorCode goes to the integration log too.',
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          required: ['AccountSid', 'MessageSid', 'From', 'To'],
          properties: {
            AccountSid: { type: 'string' },
            MessageSid: { type: 'string' },
            From: { type: 'string' },
            To: { type: 'string' },
            Body: { type: 'string' },
            MessageStatus: { type: 'string' },
            ErrorCode: { type: 'string' },
          },
          additionalProperties: true,
        },
      },
    },
    responses: {
      '400': error(
        'invalid_body: not UTF-8, no MessageSid, a From that is not a number, or a message of the other Twilio channel.',
      ),
      '401': error('unauthorized: the X-Twilio-Signature header is missing.'),
      '403': error(
        'forbidden: the signature does not match (signed over another URL than PUBLIC_URL + this path, or with another auth token), or the AccountSid is not TWILIO_ACCOUNT_SID.',
      ),
      '404': error(`not_found: the ${channel} channel is not configured.`),
      '405': error('method_not_allowed: only POST.'),
      '413': error('payload_too_large: the form is over 64 KiB.'),
    },
  }),
});

/** The WhatsApp Cloud API's, Messenger's and Twilio's webhooks (channels/whatsapp/, channels/messenger/, channels/twilio/). */
export function vendorWebhookPaths(): Obj {
  return {
    '/api/webhooks/whatsapp': {
      get: metaVerification('whatsAppWebhookVerification', 'WhatsApp', 'WHATSAPP_VERIFY_TOKEN'),
      post: webhookPost({
        operationId: 'whatsAppWebhook',
        summary: "Meta posts WhatsApp messages and the statuses of the bot's messages",
        description:
          'Served when WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN are set (docs/channels.md). X-Hub-Signature-256 is checked over the raw bytes as received, in constant time; the body is at most 1 MiB and nested at most 32 levels. ' +
          `${storedOnce} The key is the message's id (wamid…). Texts, tapped reply buttons and list rows, and captions of media run a turn; other kinds (stickers, locations, reactions) and changes of another business number are answered 200 and dropped. ` +
          'The user is `{ "channelId": "whatsapp", "user": "whatsapp:<wa_id>" }`; their number and profile name reach the dialog as `phoneNumber` and `whatsappName`. ' +
          "Statuses (sent, delivered, read, failed) are logged (whatsapp_status); a failed one, with Meta's code (131047: the 24-hour window had closed), goes to the integration log too.",
        ...metaSignedPost('whatsapp_business_account', 'WHATSAPP_APP_SECRET', 'WhatsApp'),
      }),
    },
    '/api/webhooks/messenger': {
      get: metaVerification('messengerWebhookVerification', 'Messenger', 'MESSENGER_VERIFY_TOKEN'),
      post: webhookPost({
        operationId: 'messengerWebhook',
        summary: "Meta posts a Facebook Page's Messenger events",
        description:
          'Served when MESSENGER_PAGE_ACCESS_TOKEN, MESSENGER_APP_SECRET and MESSENGER_VERIFY_TOKEN are set (docs/channels.md). X-Hub-Signature-256 is checked over the raw bytes as received, in constant time; the body is at most 1 MiB and nested at most 32 levels. ' +
          `${storedOnce} The key is the message's mid. Texts, tapped quick replies and postbacks run a turn; the Page's own echoes (is_echo), deliveries, reads and other kinds are answered 200 and dropped. ` +
          'The user is `{ "channelId": "messenger", "user": "messenger:<page-scoped id>" }`.',
        ...metaSignedPost('page', 'MESSENGER_APP_SECRET', 'Messenger'),
      }),
    },
    '/api/webhooks/twilio-sms': twilioWebhook('twilio-sms', 'an SMS', 'TWILIO_SMS_FROM'),
    '/api/webhooks/twilio-whatsapp': twilioWebhook('twilio-whatsapp', 'a WhatsApp message', 'TWILIO_WHATSAPP_FROM'),
  };
}

/** Meta's signature of every WhatsApp and Messenger webhook. */
export const metaSignatureScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Hub-Signature-256',
  description:
    'sha256=<hex HMAC-SHA256 of the raw body, keyed with the app secret: WHATSAPP_APP_SECRET or MESSENGER_APP_SECRET>. Checked in constant time, never logged.',
};

/** Twilio's signature of every webhook. */
export const twilioSignatureScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Twilio-Signature',
  description:
    "base64 HMAC-SHA1, keyed with TWILIO_AUTH_TOKEN, of PUBLIC_URL + the path followed by the form parameters' names and values in name order. Checked in constant time, never logged.",
};
