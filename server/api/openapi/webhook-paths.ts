type Obj = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/${name}` });
const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('schemas/Error') } } });

/** The vendors' webhooks (channels/connector/): where Telegram posts its updates. */
export function webhookPaths(): Obj {
  return {
    '/api/webhooks/telegram': {
      post: {
        operationId: 'telegramWebhook',
        tags: ['Channel webhooks'],
        security: [{ telegramSecret: [] }],
        summary: 'Telegram posts an update (set with `npx chatbot telegram set-webhook`)',
        description:
          'Served when TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET are set (docs/channels.md). The secret token header is compared in constant time; the body (a Bot API Update: a message, or a pressed inline button\'s callback_query) is at most 256 KiB and nested at most 32 levels. ' +
          'Each update is stored once under its update_id (a redelivery, however close, is answered 200 and changes nothing) with a durable job that runs its turn, and answered 200 at once: the turn never runs inside the request. ' +
          'The user is the address `{ "channelId": "telegram", "user": "telegram:<chat id>" }`; their username, name and language reach the dialog as `telegramUsername`, `telegramName` and `telegramLanguage` (user data when declared in userDataFields, else variables). ' +
          'Updates the bot cannot answer (stickers, edits, joins) are answered 200 and dropped. A refused request stores nothing.',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['update_id'], properties: { update_id: { type: 'integer' } }, additionalProperties: true } } } },
        responses: {
          '200': { description: 'Taken (or already taken).', content: { 'application/json': { schema: { type: 'object', required: ['ok'], properties: { ok: { const: true } } } } } },
          '400': error('invalid_body: not UTF-8, not JSON, or an update without update_id.'),
          '401': error('unauthorized: the X-Telegram-Bot-Api-Secret-Token header is missing.'),
          '403': error('forbidden: the X-Telegram-Bot-Api-Secret-Token header does not match TELEGRAM_WEBHOOK_SECRET.'),
          '404': error('not_found: the Telegram channel is not configured.'),
          '405': error('method_not_allowed: only POST.'),
          '413': error('payload_too_large: the body is over 256 KiB, or nested deeper than 32 levels.'),
          '500': ref('responses/Internal'),
        },
      },
    },
  };
}

/** The secret Telegram sends with every update. */
export const telegramSecretScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Telegram-Bot-Api-Secret-Token',
  description: 'TELEGRAM_WEBHOOK_SECRET, given to Telegram as setWebhook\'s secret_token. Compared in constant time, never logged.',
};
