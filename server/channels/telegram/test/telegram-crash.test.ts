import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerChild, type ServerChild } from '../../../test/server-child.ts';
import { eventually, storeLegs } from '../../../test/start-test-server.ts';
import { callbackUpdate, deliver, startTelegramStandIn, textUpdate } from './telegram-stand-in.ts';
import { telegramBot } from './telegram-bot.ts';

const SECRET = 'telegram-webhook-secret-0123456789';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`Telegram across a crash (${leg.name})`, () => {
    it('when the process is killed after the webhook answered 200 and before the turn ran, then the turn runs after the restart, once', async () => {
      const standIn = await startTelegramStandIn();
      const dir = await mkdtemp(path.join(tmpdir(), 'telegram-crash-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(telegramBot()));
      const env: Record<string, string> = {
        ...leg.env(),
        DATA_DIR: dir,
        BOT_DEFINITION: file,
        TELEGRAM_BOT_TOKEN: standIn.token,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_API_URL: standIn.url,
        JOB_LEASE_SECONDS: '2',
        LOG_LEVEL: 'warn',
      };
      let server: ServerChild | undefined = await startServerChild(env);
      const said = () =>
        standIn.calls
          .filter((call) => call.status === 200 && call.params.chat_id === 2001)
          .map((call) => String(call.params.text));
      try {
        await deliver(`${server.url}/api/webhooks/telegram`, textUpdate(2001, '/start'), SECRET);
        await deliver(`${server.url}/api/webhooks/telegram`, textUpdate(2001, 'Pro'), SECRET);
        await eventually('the button', () => said().includes('Say something.'), 20_000);
        const button = standIn.calls.find((call) => call.params.text === 'You chose pro.')!.params.reply_markup as {
          inline_keyboard: { callback_data: string }[][];
        };

        // The turn begins with answerCallbackQuery: held, so the process dies with the update taken and its turn not run.
        standIn.hold('answerCallbackQuery');
        const pressed = callbackUpdate(2001, button.inline_keyboard[0]![0]!.callback_data);
        expect((await deliver(`${server.url}/api/webhooks/telegram`, pressed, SECRET)).status).toBe(200);
        await eventually(
          'the turn to be under way',
          () => standIn.calls.some((call) => call.method === 'answerCallbackQuery' && call.description === 'held'),
          20_000,
        );
        await server.kill();
        standIn.release();
        expect(said()).not.toContain('You said more.');

        server = await startServerChild(env);
        await eventually(
          'the turn after the restart',
          () => said().filter((text) => text === 'Say something.').length === 2,
          30_000,
        );
        // Telegram delivering it again changes nothing.
        expect((await deliver(`${server.url}/api/webhooks/telegram`, pressed, SECRET)).status).toBe(200);
        await deliver(`${server.url}/api/webhooks/telegram`, textUpdate(2001, 'later'), SECRET);
        await eventually('a later answer', () => said().length === 8, 20_000);
        expect(said()).toEqual([
          'Hello .',
          'Pick a plan.',
          'You chose pro.',
          'Say something.',
          'You said more.',
          'Say something.',
          'You said later.',
          'Say something.',
        ]);
      } finally {
        await server?.stop();
        await standIn.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
