import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_FUNCTION_KEY,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../../test/start-test-server.ts';
import {
  callbackUpdate,
  deliver,
  startTelegramStandIn,
  textUpdate,
  type SeenCall,
  type TelegramStandIn,
} from './telegram-stand-in.ts';
import { telegramBot } from './telegram-bot.ts';
import { runCli } from '../../../cli/main.ts';
import { startSubscriber } from '../../../api/management/test/subscriber.ts';

const SECRET = 'telegram-webhook-secret-0123456789';

/** What the bot sent to a chat that Telegram accepted, in order: texts, and photos as <photo>. */
function sentTo(standIn: TelegramStandIn, chatId: number): SeenCall[] {
  return standIn.calls.filter(
    (call) =>
      call.status === 200 &&
      (call.method === 'sendMessage' || call.method === 'sendPhoto') &&
      call.params.chat_id === chatId,
  );
}
const textsTo = (standIn: TelegramStandIn, chatId: number) =>
  sentTo(standIn, chatId).map((call) => String(call.params.text ?? '<photo>'));

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the Telegram channel (${leg.name})`, () => {
    let standIn: TelegramStandIn;
    let server: TestServer;
    let dir: string;
    let webhook: string;

    beforeAll(async () => {
      standIn = await startTelegramStandIn();
      dir = await mkdtemp(path.join(tmpdir(), 'telegram-channel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(telegramBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        TELEGRAM_BOT_TOKEN: standIn.token,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_API_URL: standIn.url,
      });
      webhook = `${server.url}/api/webhooks/telegram`;
    });

    afterAll(async () => {
      await server?.stop();
      await standIn?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a user starts the bot, picks from the reply keyboard and presses an inline button, then each answer reaches the chat natively and the username is user data', async () => {
      const start = await deliver(webhook, textUpdate(1001, '/start', { username: 'ada_l' }), SECRET);
      expect(start.status).toBe(200);
      expect(await start.json()).toEqual({ ok: true });
      await eventually('the greeting and the question', () => textsTo(standIn, 1001).length >= 2);
      const [hello, pick] = sentTo(standIn, 1001);
      expect(hello!.params.text).toBe('Hello ada_l.');
      expect(pick!.params).toMatchObject({
        text: 'Pick a plan.',
        reply_markup: { keyboard: [[{ text: 'Basic' }], [{ text: 'Pro' }]], one_time_keyboard: true },
      });
      expect(await server.store.getUser('telegram:1001')).toMatchObject({
        channelId: 'telegram',
        userData: { telegramUsername: 'ada_l' },
      });

      await deliver(webhook, textUpdate(1001, 'Pro'), SECRET);
      await eventually('the choice answered', () => textsTo(standIn, 1001).includes('Say something.'));
      const chosen = sentTo(standIn, 1001).find((call) => call.params.text === 'You chose pro.')!;
      const keyboard = (chosen.params.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] })
        .inline_keyboard;
      expect(keyboard.map((row) => row.map((button) => button.text))).toEqual([['Tell me more']]);

      await deliver(webhook, callbackUpdate(1001, keyboard[0]![0]!.callback_data), SECRET);
      await eventually('the button answered', () => textsTo(standIn, 1001).length === 6);
      expect(standIn.calls.some((call) => call.method === 'answerCallbackQuery' && call.status === 200)).toBe(true);
      expect(textsTo(standIn, 1001)).toEqual([
        'Hello ada_l.',
        'Pick a plan.',
        'You chose pro.',
        'Say something.',
        'You said more.',
        'Say something.',
      ]);
    });

    it('when the trigger endpoint names a Telegram user by their address, then the dialog reaches their chat', async () => {
      const address = Buffer.from(
        JSON.stringify({ bot: 'telegram-bot', user: 'telegram:1001', channelId: 'telegram' }),
      ).toString('base64url');
      const response = await fetch(`${server.url}/api/management/trigger/${address}/news`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(response.status).toBe(202);
      expect(await response.json()).toMatchObject({ delivery: 'callback' });
      await eventually('the triggered message', () => textsTo(standIn, 1001).includes('News for you.'));
    });

    it('when the user data and transcript are exported, then the Telegram user is there like any user, with their username', async () => {
      const get = async (name: string) =>
        (
          await fetch(`${server.url}/api/management/export/${name}`, {
            headers: { 'x-functions-key': TEST_FUNCTION_KEY },
          })
        ).text();
      const userData = await get('userData');
      expect(userData).toContain('telegram:1001');
      expect(userData).toContain('ada_l');
      const transcript = await get('transcript');
      expect(transcript).toContain('You chose pro.');
    });

    it('when Telegram delivers the same update twice at once and five times more, then the bot answers it once', async () => {
      const update = textUpdate(1002, '/start', { username: 'grace' });
      const together = await Promise.all([deliver(webhook, update, SECRET), deliver(webhook, update, SECRET)]);
      expect(together.map((response) => response.status)).toEqual([200, 200]);
      for (let i = 0; i < 5; i++) expect((await deliver(webhook, update, SECRET)).status).toBe(200);
      // A later message, answered after the copies' turns would have been: nothing can still be on its way.
      await deliver(webhook, textUpdate(1002, 'Basic'), SECRET);
      await eventually('the later answer', () => textsTo(standIn, 1002).includes('Say something.'));
      expect(textsTo(standIn, 1002)).toEqual(['Hello grace.', 'Pick a plan.', 'You chose basic.', 'Say something.']);
      // /start opened the conversation (no message of the user's); "Basic" is the one user entry.
      const transcript = await server.store.readTranscript('telegram:1002', 0, 100);
      expect(transcript.filter((entry) => entry.from === 'user').map((entry) => entry.message)).toEqual([
        { type: 'postback', label: 'Basic', payload: 'basic' },
      ]);
    });

    it('when an update comes with a wrong secret, none, or a body over the limit, then it is refused with a JSON error and nothing of it is kept', async () => {
      const update = textUpdate(1003, '/start');
      const forged = await deliver(webhook, update, 'not-the-secret-at-all-0123');
      expect(forged.status).toBe(403);
      expect(await forged.json()).toMatchObject({ error: { code: 'forbidden' } });
      const missing = await deliver(webhook, update, undefined);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ error: { code: 'unauthorized' } });
      const oversized = await deliver(webhook, { ...update, padding: 'x'.repeat(300 * 1024) }, SECRET);
      expect(oversized.status).toBe(413);
      expect(await oversized.json()).toMatchObject({ error: { code: 'payload_too_large' } });
      const deep = await deliver(
        webhook,
        { ...update, nested: JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown },
        SECRET,
      );
      expect(deep.status).toBe(413);
      expect(await server.store.getUser('telegram:1003')).toBeNull();
      // The same update_id, sent properly, is new: the refused copies left nothing behind.
      expect((await deliver(webhook, update, SECRET)).status).toBe(200);
      await eventually('the greeting', () => textsTo(standIn, 1003).includes('Pick a plan.'));
      expect(server.logText()).not.toContain(SECRET);
      expect(server.logText()).not.toContain(standIn.token);
    });

    it('when the webhook is asked with another method than POST, then 405 says which methods it takes', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await fetch(webhook, { method });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        expect(await response.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
      }
    });

    it('when a user sends 20 messages in a burst, then the answers reach the chat in the order they were sent', async () => {
      await deliver(webhook, textUpdate(1004, '/start'), SECRET);
      await deliver(webhook, textUpdate(1004, 'Basic'), SECRET);
      await eventually('the echo prompt', () => textsTo(standIn, 1004).includes('Say something.'));
      for (let i = 1; i <= 20; i++)
        expect((await deliver(webhook, textUpdate(1004, `m${i}`), SECRET)).status).toBe(200);
      await eventually(
        'twenty answers',
        () => textsTo(standIn, 1004).filter((text) => text.startsWith('You said')).length === 20,
        20_000,
      );
      expect(textsTo(standIn, 1004).filter((text) => text.startsWith('You said'))).toEqual(
        Array.from({ length: 20 }, (_, i) => `You said m${i + 1}.`),
      );
    });

    it('when a user sends 4096 characters that take more than 4096 bytes, then the text is cut between characters to the bytes every channel takes, and answered', async () => {
      await deliver(webhook, textUpdate(1007, '/start'), SECRET);
      await deliver(webhook, textUpdate(1007, 'Basic'), SECRET);
      await eventually('the echo prompt', () => textsTo(standIn, 1007).includes('Say something.'));
      expect((await deliver(webhook, textUpdate(1007, 'я👍🏽'.repeat(1365) + 'я'), SECRET)).status).toBe(200);
      const echoed = await eventually('the echo', () =>
        textsTo(standIn, 1007).find((text) => text.startsWith('You said я')),
      );
      const [entry] = (await server.store.readTranscript('telegram:1007', 0, 100)).filter(
        (e) => e.from === 'user' && (e.message as { text?: string }).text?.startsWith('я'),
      );
      const stored = (entry!.message as { text: string }).text;
      expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(4096);
      expect(stored.endsWith('…')).toBe(true);
      expect(stored.slice(0, -1)).toMatch(/^(я👍🏽)+я?$/u);
      expect(echoed.length).toBeLessThanOrEqual(4096);
    });

    it('when a user is erased while their turn is being sent, then the rest of that turn is never sent, and their next message starts afresh', async () => {
      const chat = 1301;
      const sends = () => standIn.calls.filter((call) => call.method === 'sendMessage' && call.params.chat_id === chat);
      // The greeting's call gets no answer yet: the turn's send job is under way, its second message still to send.
      standIn.hold('sendMessage');
      try {
        expect((await deliver(webhook, textUpdate(chat, '/start', { username: 'erin' }), SECRET)).status).toBe(200);
        await eventually('the greeting on its way', () => sends().length === 1);
        const erased = await fetch(`${server.url}/api/management/users/${encodeURIComponent(`telegram:${chat}`)}`, {
          method: 'DELETE',
          headers: { 'x-functions-key': TEST_FUNCTION_KEY },
        });
        expect(erased.status).toBe(200);
      } finally {
        standIn.release();
      }
      // The same chat writes again: a new conversation, whose sends follow the erased turn's job in its group.
      expect((await deliver(webhook, textUpdate(chat, '/start', { username: 'erin' }), SECRET)).status).toBe(200);
      await eventually('the new greeting and question', () => textsTo(standIn, chat).length >= 2);
      expect(sends().map((call) => call.params.text)).toEqual(['Hello erin.', 'Hello erin.', 'Pick a plan.']);
    });

    it('when Telegram answers 429 with retry_after, then the message is sent again after the wait, in order', async () => {
      standIn.rateLimit(1005, 1, 1);
      await deliver(webhook, textUpdate(1005, '/start', { username: 'lin' }), SECRET);
      await eventually('the greeting after the wait', () => textsTo(standIn, 1005).includes('Pick a plan.'), 10_000);
      expect(textsTo(standIn, 1005)).toEqual(['Hello lin.', 'Pick a plan.']);
      expect(standIn.calls.some((call) => call.status === 429 && call.params.chat_id === 1005)).toBe(true);
    });

    it('when the user has blocked the bot, then the 403 is not retried, and it is logged with its code, in the integration log and to subscribers', async () => {
      const subscriber = await startSubscriber();
      const subscribed = await fetch(`${server.url}/api/management/subscriptions`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ targetUrl: subscriber.url, events: ['message.undelivered'] }),
      });
      expect(subscribed.status).toBe(201);
      standIn.block(1006);
      await deliver(webhook, textUpdate(1006, '/start'), SECRET);
      const refused = await eventually('the refusal logged', () =>
        server.logs.find((line) => line.event === 'channel_send_refused' && line.userId === 'telegram:1006'),
      );
      expect(refused).toMatchObject({ channel: 'telegram', vendorCode: '403' });
      const exported = await eventually('the integration log', async () => {
        const response = await fetch(`${server.url}/api/management/export/integrationLog`, {
          headers: { 'x-functions-key': TEST_FUNCTION_KEY },
        });
        const text = await response.text();
        return text.includes('telegram:1006') && text;
      });
      expect(exported).toContain('Forbidden: bot was blocked by the user');
      const attempts = standIn.calls.filter((call) => call.params.chat_id === 1006 && call.params.text === 'Hello .');
      expect(attempts.map((call) => call.status)).toEqual([403]);
      const told = await eventually('the subscriber told', () =>
        subscriber.accepted().find((event) => event.user.id === 'telegram:1006'),
      );
      expect(told).toMatchObject({
        kind: 'message.undelivered',
        user: { channelId: 'telegram' },
        data: {
          channel: 'telegram',
          vendorCode: '403',
          message: 'Telegram sendMessage: Forbidden: bot was blocked by the user',
        },
      });
      await subscriber.close();
      expect(server.logText()).not.toContain(standIn.token);
    });
  });
}

describe('chatbot telegram set-webhook', () => {
  it('when the command runs with the settings, then Telegram is given the public webhook URL and the secret, and the token is never printed', async () => {
    const standIn = await startTelegramStandIn();
    try {
      const out: string[] = [];
      const err: string[] = [];
      const into = (lines: string[]) =>
        new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString()), done()) });
      const io = { stdout: into(out), stderr: into(err) };
      const env = {
        TELEGRAM_BOT_TOKEN: standIn.token,
        TELEGRAM_WEBHOOK_SECRET: SECRET,
        TELEGRAM_API_URL: standIn.url,
        PUBLIC_URL: 'https://bot.example.com/',
      };
      expect(await runCli(['telegram', 'set-webhook'], { ...io, env })).toBe(0);
      expect(standIn.webhook()).toEqual({ url: 'https://bot.example.com/api/webhooks/telegram', secret: SECRET });
      expect(out.join('')).toContain('https://bot.example.com/api/webhooks/telegram');

      const wrongToken = { ...env, TELEGRAM_BOT_TOKEN: '987654321:AAH-another-token-0123456789abcdefghi' };
      expect(await runCli(['telegram', 'set-webhook'], { ...io, env: wrongToken })).toBe(1);
      expect(err.join('')).toContain('Unauthorized');
      expect([...out, ...err].join('')).not.toContain(standIn.token);
      expect([...out, ...err].join('')).not.toContain(wrongToken.TELEGRAM_BOT_TOKEN);
    } finally {
      await standIn.close();
    }
  });
});
