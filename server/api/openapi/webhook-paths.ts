import { error, type Obj } from './operation-parts.ts';
import { webhookPost } from './webhook-operation.ts';

/** The vendors' webhooks (channels/connector/): where Telegram and Slack post, and the Bot Framework (Microsoft Teams) its activities. */
export function webhookPaths(): Obj {
  return {
    '/api/webhooks/telegram': {
      post: webhookPost({
        operationId: 'telegramWebhook',
        scheme: 'telegramSecret',
        summary: 'Telegram posts an update (set with `npx chatbot telegram set-webhook`)',
        description:
          "Served when TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET are set (docs/channels.md). The secret token header is compared in constant time; the body (a Bot API Update: a message, or a pressed inline button's callback_query) is at most 256 KiB and nested at most 32 levels. " +
          'Each update is stored once under its update_id (a redelivery, however close, is answered 200 and changes nothing) with a durable job that runs its turn, and answered 200 at once: the turn never runs inside the request. ' +
          'The user is the address `{ "channelId": "telegram", "user": "telegram:<chat id>" }`; their username, name and language reach the dialog as `telegramUsername`, `telegramName` and `telegramLanguage` (user data when declared in userDataFields, else variables). ' +
          'Updates the bot cannot answer (stickers, edits, joins) are answered 200 and dropped. A refused request stores nothing.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['update_id'],
              properties: { update_id: { type: 'integer' } },
              additionalProperties: true,
            },
          },
        },
        responses: {
          '400': error('invalid_body: not UTF-8, not JSON, or an update without update_id.'),
          '401': error('unauthorized: the X-Telegram-Bot-Api-Secret-Token header is missing.'),
          '403': error('forbidden: the X-Telegram-Bot-Api-Secret-Token header does not match TELEGRAM_WEBHOOK_SECRET.'),
          '404': error('not_found: the Telegram channel is not configured.'),
          '405': error('method_not_allowed: only POST.'),
          '413': error('payload_too_large: the body is over 256 KiB, or nested deeper than 32 levels.'),
        },
      }),
    },
    '/api/webhooks/teams': {
      post: webhookPost({
        operationId: 'teamsWebhook',
        scheme: 'botFrameworkToken',
        summary: "The Bot Framework posts a Microsoft Teams activity (the Azure Bot's messaging endpoint)",
        description:
          "Served when BOTFRAMEWORK_APP_ID and BOTFRAMEWORK_APP_PASSWORD are set (docs/channels.md). The Authorization header's JWT must be signed with a key the Bot Framework publishes at BOTFRAMEWORK_OPENID_URL (fetched, cached, fetched again for a new key id), issued by https://api.botframework.com for the app id, unexpired (60 s of clock skew allowed), with a key endorsed for the activity's channelId when the key lists its endorsements, and its serviceUrl claim must equal the activity's serviceUrl, itself one of BOTFRAMEWORK_SERVICE_URLS. The body is at most 256 KiB and nested at most 32 levels. " +
          'Each activity is stored once under its id (a redelivery, however close, is answered 200 and changes nothing) with a durable job that runs its turn, and answered 200 at once. ' +
          'A message is the user\'s text (a bot @mention taken out) or, with a `value` of `{ "choice": "<seq>.<index>" }`, a pressed card button; a conversationUpdate adding the bot to a personal chat opens the conversation (the start dialog). Other activities are answered 200 and dropped. ' +
          'The user is the address `{ "channelId": "teams", "user": "teams:<conversation id>" }`; the conversation\'s serviceUrl, the tenant, the user\'s name and Azure AD object id reach the dialog as `teamsServiceUrl`, `teamsTenantId`, `teamsName` and `teamsAadObjectId` (user data when declared in userDataFields, else variables), which is what lets a trigger reach the user later. A refused request stores nothing.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['type', 'serviceUrl', 'conversation'],
              properties: {
                type: { type: 'string' },
                id: { type: 'string' },
                serviceUrl: { type: 'string' },
                conversation: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
              },
              additionalProperties: true,
            },
          },
        },
        responses: {
          '400': error(
            'invalid_body: not UTF-8, not JSON, or not an activity (type, serviceUrl, conversation.id; a message needs an id).',
          ),
          '401': error('unauthorized: no Authorization header with a Bearer JWT.'),
          '403': error(
            "forbidden: the token is expired, signed with a key the Bot Framework does not publish (or does not endorse for the activity's channel), issued by another issuer or for another app id, or the activity's serviceUrl is not the token's or not allowed.",
          ),
          '404': error('not_found: the Teams channel is not configured.'),
          '405': error('method_not_allowed: only POST.'),
          '413': error('payload_too_large: the body is over 256 KiB, or nested deeper than 32 levels.'),
          '503': error(
            "unavailable: the Bot Framework's signing keys could not be fetched; the Bot Framework sends the activity again.",
          ),
        },
      }),
    },
    '/api/webhooks/slack': {
      post: webhookPost({
        operationId: 'slackWebhook',
        scheme: 'slackSignature',
        summary:
          "Slack posts an event or a button click (the app's Request URL for Event Subscriptions and Interactivity)",
        description:
          'Served when SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are set (docs/channels.md). Every request must carry `X-Slack-Request-Timestamp` (at most five minutes from this server\'s clock) and `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:{timestamp}:{raw body}" with the signing secret>`, compared in constant time over the bytes as received; the body is at most 1 MiB and nested at most 32 levels. ' +
          "A `url_verification` is answered with its `challenge` as text. An `event_callback` is stored once under its `event_id` (Slack's retries, with `X-Slack-Retry-Num`, find it stored and change nothing) and answered 200 at once: the turn never runs inside the request. The bot answers a direct message (`message`, `channel_type: im`) and a mention in a channel (`app_mention`, answered in its thread); its own messages and other bots' (`bot_id`), edits and other subtypes are dropped. " +
          'A button click (`application/x-www-form-urlencoded` with a JSON `payload` of type `block_actions`) is stored once under its `trigger_id` and answered 200 at once. ' +
          'The user is the address `{ "channelId": "slack", "user": "slack:<D… channel>" }` for a direct message, `slack:<C… channel>/<thread ts>` for a thread; the Slack user id reaches the dialog as `slackUserId` (and the workspace as `slackTeamId`). A refused request stores nothing.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['type'],
              properties: {
                type: { enum: ['url_verification', 'event_callback'] },
                event_id: { type: 'string' },
                challenge: { type: 'string' },
              },
              additionalProperties: true,
            },
          },
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['payload'],
              properties: {
                payload: { type: 'string', description: 'The interactivity payload as JSON (type block_actions).' },
              },
            },
          },
        },
        responses: {
          '200': {
            description: "Taken (or already taken); a url_verification's challenge as text.",
            content: {
              'application/json': { schema: { type: 'object', required: ['ok'], properties: { ok: { const: true } } } },
              'text/plain': { schema: { type: 'string' } },
            },
          },
          '400': error(
            'invalid_body: not UTF-8, not JSON, an event_callback without event_id, or a form without a JSON payload.',
          ),
          '401': error('unauthorized: the X-Slack-Signature or X-Slack-Request-Timestamp header is missing.'),
          '403': error(
            'forbidden: the signature does not match SLACK_SIGNING_SECRET, or the timestamp is more than five minutes away (a replay).',
          ),
          '404': error('not_found: the Slack channel is not configured.'),
          '405': error('method_not_allowed: only POST.'),
          '413': error('payload_too_large: the body is over 1 MiB, or nested deeper than 32 levels.'),
        },
      }),
    },
  };
}

/** The token the Bot Framework signs for each request to the bot. */
export const botFrameworkTokenScheme = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    "Signed by the Bot Framework (keys at BOTFRAMEWORK_OPENID_URL), issuer https://api.botframework.com, audience BOTFRAMEWORK_APP_ID, with the activity's serviceUrl as a claim.",
};

/** How Slack signs every request it sends. */
export const slackSignatureScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Slack-Signature',
  description:
    'v0=<hex HMAC-SHA256(SLACK_SIGNING_SECRET, "v0:" + X-Slack-Request-Timestamp + ":" + raw body)>; the timestamp at most five minutes from the server\'s clock. Compared in constant time; the secret is never logged.',
};

/** The secret Telegram sends with every update. */
export const telegramSecretScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Telegram-Bot-Api-Secret-Token',
  description:
    "TELEGRAM_WEBHOOK_SECRET, given to Telegram as setWebhook's secret_token. Compared in constant time, never logged.",
};
