import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../../config.ts';
import { eventually, startTestServer, type TestServer } from '../../../test/start-test-server.ts';
import { startTelegramStandIn, type TelegramStandIn } from './telegram-stand-in.ts';

const SECRET = 'telegram-webhook-secret-0123456789';

describe('the Telegram webhook set at start (TELEGRAM_SET_WEBHOOK)', () => {
  let standIn: TelegramStandIn | undefined;
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    await standIn?.close();
    server = undefined;
    standIn = undefined;
  });

  /** The server with Telegram, told to set its webhook, with this public address. */
  async function start(publicUrl: string) {
    standIn = await startTelegramStandIn();
    server = await startTestServer({
      TELEGRAM_BOT_TOKEN: standIn.token,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_URL: standIn.url,
      TELEGRAM_SET_WEBHOOK: 'true',
      PUBLIC_URL: publicUrl,
    });
    return { standIn, server };
  }

  it('when the server starts, then Telegram is told the public webhook address with the secret, each start again, and the log says so without the token', async () => {
    const first = await start('http://127.0.0.1:9/');
    await eventually('the webhook', () => first.standIn.webhook());
    expect(first.standIn.webhook()).toEqual({ url: 'http://127.0.0.1:9/api/webhooks/telegram', secret: SECRET });
    const set = await eventually('the log line', () =>
      first.server.logs.find((line) => line.event === 'telegram_webhook_set'),
    );
    expect(set).toMatchObject({ url: 'http://127.0.0.1:9/api/webhooks/telegram' });
    expect(first.standIn.calls.find((call) => call.method === 'setWebhook')?.params).toMatchObject({
      allowed_updates: ['message', 'callback_query'],
    });
    // A restart sets it again (the same settings: a no-op at Telegram).
    await first.server.stop();
    server = await startTestServer({
      TELEGRAM_BOT_TOKEN: first.standIn.token,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_URL: first.standIn.url,
      TELEGRAM_SET_WEBHOOK: 'true',
      PUBLIC_URL: 'http://127.0.0.1:9/',
    });
    await eventually('the second setWebhook', () =>
      first.standIn.calls.filter((call) => call.method === 'setWebhook').length === 2 ? true : undefined,
    );
    expect(first.server.logText() + server.logText()).not.toContain(first.standIn.token);
  });

  it('when Telegram refuses the webhook, then the server runs on and the log says why, without the token', async () => {
    const { standIn: telegram, server: running } = await start('http://bot.example.test');
    const refused = await eventually('the log line', () =>
      running.logs.find((line) => line.event === 'telegram_webhook_not_set'),
    );
    expect(String(refused.reason)).toContain('An HTTPS URL must be provided for webhook');
    expect(telegram.webhook()).toBeUndefined();
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    expect(running.logText()).not.toContain(telegram.token);
  });

  it('when TELEGRAM_SET_WEBHOOK is true without PUBLIC_URL, then the configuration is refused, naming the settings it needs', () => {
    expect(() =>
      readConfig({
        TELEGRAM_BOT_TOKEN: '123456789:AAH-stand-in-token-0123456789abcdefghij',
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_SET_WEBHOOK: 'true',
      }),
    ).toThrow(/TELEGRAM_SET_WEBHOOK.*PUBLIC_URL/s);
  });
});
