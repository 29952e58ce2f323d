import { describe, it } from 'vitest';
import { storeLegs } from '../../../test/start-test-server.ts';
import { proveCrashBetweenAckAndTurn } from '../../test/crash-between-ack-and-turn.ts';
import { deliver, startTelegramStandIn, textUpdate } from './telegram-stand-in.ts';

const SECRET = 'telegram-webhook-secret-0123456789';
const chatId = 2001;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`Telegram across a crash (${leg.name})`, () => {
    it('when the process is killed after the webhook answered 200 and before the turn ran, then the turn runs after the restart, once', async () => {
      const standIn = await startTelegramStandIn();
      try {
        await proveCrashBetweenAckAndTurn(leg.env(), {
          channel: 'telegram',
          env: {
            TELEGRAM_BOT_TOKEN: standIn.token,
            TELEGRAM_WEBHOOK_SECRET: SECRET,
            TELEGRAM_API_URL: standIn.url,
          },
          message(text) {
            const update = textUpdate(chatId, text);
            return (webhook) => deliver(webhook, update, SECRET);
          },
          said: () =>
            standIn.calls
              .filter((call) => call.status === 200 && call.params.chat_id === chatId)
              .map((call) => String(call.params.text)),
        });
      } finally {
        await standIn.close();
      }
    }, 120_000);
  });
}
