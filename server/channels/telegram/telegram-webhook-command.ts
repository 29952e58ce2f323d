import type { Config } from '../../config.ts';
import type { Logger } from '../../ports/logger.ts';
import { redactToken, telegramApi } from './telegram-api.ts';
import { setTelegramWebhook } from './telegram-connector.ts';

/**
 * Tells Telegram where to post this bot's updates (setWebhook with the secret token), from the
 * server's settings: TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL. Resolves with the
 * webhook URL set; rejects with a sentence that names the setting to fix, never the token.
 */
export async function setTelegramWebhookFromConfig(config: Config): Promise<string> {
  if (!config.TELEGRAM_BOT_TOKEN || !config.TELEGRAM_WEBHOOK_SECRET)
    throw new Error('TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET must be set (docs/channels.md).');
  if (!config.PUBLIC_URL)
    throw new Error('PUBLIC_URL must be set to the address Telegram reaches this server by (https://…).');
  const call = telegramApi({ token: config.TELEGRAM_BOT_TOKEN, apiUrl: config.TELEGRAM_API_URL });
  return setTelegramWebhook(call, config.PUBLIC_URL, config.TELEGRAM_WEBHOOK_SECRET);
}

/**
 * The same setWebhook when the server starts listening (TELEGRAM_SET_WEBHOOK=true). Every start may
 * call it: Telegram takes the same URL and secret again as a no-op, and a changed PUBLIC_URL or secret
 * is the one that counts from then on. A refusal or an unreachable Bot API is logged (never the token)
 * and the server runs on: updates keep going wherever the webhook pointed before.
 */
export async function setTelegramWebhookAtStart(config: Config, logger: Logger): Promise<void> {
  try {
    const url = await setTelegramWebhookFromConfig(config);
    logger.info({ event: 'telegram_webhook_set', url }, `Telegram posts this bot's updates to ${url}`);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const reason = config.TELEGRAM_BOT_TOKEN ? redactToken(text, config.TELEGRAM_BOT_TOKEN) : text;
    logger.warn(
      { event: 'telegram_webhook_not_set', reason },
      `could not set the Telegram webhook (${reason}); the server runs on, and \`npx chatbot telegram set-webhook\` tries again`,
    );
  }
}
