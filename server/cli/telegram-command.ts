import { ConfigError, readConfig, type Config } from '../config.ts';
import type { CommandIo } from './check-command.ts';

export const TELEGRAM_USAGE =
  'telegram set-webhook   tell Telegram to post updates to PUBLIC_URL/api/webhooks/telegram with TELEGRAM_WEBHOOK_SECRET';

/** `chatbot telegram set-webhook`: one Bot API call with the server's settings; says what it set, or why not. */
export async function telegramCommand(
  args: readonly string[],
  io: CommandIo,
  setWebhook: (config: Config) => Promise<string>,
): Promise<number> {
  if (args[0] !== 'set-webhook') {
    io.stderr.write(`Usage:\n  chatbot ${TELEGRAM_USAGE}\n`);
    return 2;
  }
  try {
    const url = await setWebhook(readConfig(io.env));
    io.stdout.write(`Telegram now posts this bot's updates to ${url} (with the secret token).\n`);
    return 0;
  } catch (error) {
    io.stderr.write(
      `${error instanceof ConfigError ? 'Configuration error: ' : 'Could not set the webhook: '}${(error as Error).message}\n`,
    );
    return 1;
  }
}
