import type { Config } from '../../config.ts';
import { telegramApi } from './telegram-api.ts';
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
