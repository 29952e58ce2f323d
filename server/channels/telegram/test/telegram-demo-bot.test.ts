import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestServer } from '../../../test/start-test-server.ts';
import { deliver, startTelegramStandIn, textUpdate, type TelegramStandIn } from './telegram-stand-in.ts';

const SECRET = 'telegram-webhook-secret-0123456789';

/** docs/channels.md promises a newcomer the demo bot on Telegram with two settings: this is that path, on the stand-in. */
describe('the demo bot on Telegram', () => {
  let standIn: TelegramStandIn;
  let server: TestServer;

  beforeAll(async () => {
    standIn = await startTelegramStandIn();
    server = await startTestServer({
      TELEGRAM_BOT_TOKEN: standIn.token,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_URL: standIn.url,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await standIn?.close();
  });

  it('when a newcomer presses Start, gives a name and takes the tour, then every answer is accepted by Telegram and the menu is answered by number', async () => {
    const webhook = `${server.url}/api/webhooks/telegram`;
    const texts = () =>
      standIn.calls
        .filter((call) => call.params.chat_id === 3001 && call.status === 200)
        .map((call) => String(call.params.text ?? call.params.caption ?? '<photo>'));
    await deliver(webhook, textUpdate(3001, '/start'), SECRET);
    await eventually('the greeting', () => texts().includes("What's your name?"));
    await deliver(webhook, textUpdate(3001, 'Ada'), SECRET);
    await eventually('the welcome', () => texts().includes('Nice to meet you, Ada!'));
    const welcome = standIn.calls.find((call) => call.params.text === 'Nice to meet you, Ada!')!;
    expect(welcome.params.reply_markup).toMatchObject({
      keyboard: [[{ text: 'Show me around' }], [{ text: 'Ask a question' }]],
    });
    await deliver(webhook, textUpdate(3001, 'Show me around'), SECRET);
    // Thirteen choices are more than the reply keyboard's twelve: a numbered list, answered by number.
    const menu = await eventually('the menu', () =>
      standIn.calls.find((call) => String(call.params.text).startsWith('What would you like to see?')),
    );
    expect(menu.params.text).toContain('\n1. Messages\n');
    await deliver(webhook, textUpdate(3001, '1'), SECRET);
    await eventually('the messages tour', () => texts().length > 5);
    expect(standIn.calls.filter((call) => call.status !== 200 && call.status !== 0)).toEqual([]);
    expect(server.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });
});
