import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_FUNCTION_KEY,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../test/start-test-server.ts';
import type { WhatsAppCloudStandIn } from '../channels/test/vendors/whatsapp/whatsapp-cloud-stand-in.ts';
import {
  deliver,
  startTelegramStandIn,
  textUpdate,
  type TelegramStandIn,
} from '../channels/telegram/test/telegram-stand-in.ts';
import { linkingBot } from './test/linking-bot.ts';
import {
  activeToday,
  LINK_CODE,
  startWhatsApp,
  whatsAppEnv,
  whatsAppUsers,
} from '../channels/test/vendors/whatsapp/whatsapp-users.ts';

const TELEGRAM_SECRET = 'telegram-webhook-secret-0123456789';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`two channels other than the web chat linked (${leg.name})`, () => {
    let whatsApp: WhatsAppCloudStandIn;
    let telegram: TelegramStandIn;
    let server: TestServer;
    let dir: string;
    const { texts: onWhatsApp, say: sayOnWhatsApp } = whatsAppUsers(
      () => whatsApp,
      () => server.url,
      'Gus',
    );
    const onTelegram = (chatId: number) =>
      telegram.calls
        .filter((call) => call.status === 200 && call.method === 'sendMessage' && call.params.chat_id === chatId)
        .map((call) => String(call.params.text));
    const sayOnTelegram = (chatId: number, text: string) =>
      deliver(`${server.url}/api/webhooks/telegram`, textUpdate(chatId, text), TELEGRAM_SECRET);
    const trigger = async (user: string, channelId: string, dialogId = 'news') => {
      const address = Buffer.from(JSON.stringify({ bot: 'linking-bot', user, channelId })).toString('base64url');
      const response = await fetch(`${server.url}/api/management/trigger/${address}/${dialogId}`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(response.status).toBe(202);
    };
    /** A WhatsApp user answers the name and the city, and is shown a code: the code. */
    async function codeOnWhatsApp(waId: string, name: string): Promise<string> {
      await sayOnWhatsApp(waId, name);
      await eventually('the second question', () => onWhatsApp(waId).includes('Your city?'));
      await sayOnWhatsApp(waId, 'Oslo');
      const shown = await eventually('the code', () => onWhatsApp(waId).find((text) => LINK_CODE.test(text)));
      return LINK_CODE.exec(shown)![1]!;
    }

    beforeAll(async () => {
      whatsApp = await startWhatsApp();
      telegram = await startTelegramStandIn();
      dir = await mkdtemp(path.join(tmpdir(), 'lasting-link-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(linkingBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        ...whatsAppEnv(whatsApp),
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
        TELEGRAM_API_URL: telegram.url,
      });
    });

    afterAll(async () => {
      await server?.stop();
      await whatsApp?.close();
      await telegram?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when the code shown on WhatsApp arrives on Telegram, then the dialog goes on there, and each channel hears back where the person wrote last', async () => {
      const code = await codeOnWhatsApp('16505550301', 'Gus');
      await sayOnTelegram(3001, '/start');
      await eventually('the Telegram greeting', () => onTelegram(3001).includes('Your name?'));
      await sayOnTelegram(3001, code);
      await eventually('the welcome on Telegram', () => onTelegram(3001).includes('Welcome back, Gus from Oslo.'));
      expect(onWhatsApp('16505550301')).not.toContain('Welcome back, Gus from Oslo.');
      const person = await server.store.getUser('whatsapp:16505550301');
      expect(person?.userData).toMatchObject({ name: 'Gus', city: 'Oslo' });

      // A trigger reaches the person where they wrote last (Telegram), by either address.
      await trigger('telegram:3001', 'telegram');
      await eventually('the news on Telegram', () => onTelegram(3001).includes('News for Gus.'));
      expect(onWhatsApp('16505550301')).not.toContain('News for Gus.');

      // WhatsApp's 24-hour window is WhatsApp's: closed, it does not keep a trigger from reaching Telegram.
      const held = (await server.store.getUser('whatsapp:16505550301'))!;
      await server.store.updateUser(
        held.userId,
        held.version,
        { lastMessageAt: Date.now() - 2 * 86_400_000 },
        Date.now(),
      );
      await trigger('whatsapp:16505550301', 'whatsapp');
      await eventually(
        'the news on Telegram again',
        () => onTelegram(3001).filter((t) => t === 'News for Gus.').length === 2,
      );

      // Back on WhatsApp: the answer goes there, and so does the next trigger.
      const telegramBefore = onTelegram(3001).length;
      const whatsAppBefore = onWhatsApp('16505550301').length;
      await sayOnWhatsApp('16505550301', 'hello');
      await eventually('an answer on WhatsApp', () => onWhatsApp('16505550301').length > whatsAppBefore);
      await trigger('whatsapp:16505550301', 'whatsapp');
      await eventually('the news on WhatsApp', () => onWhatsApp('16505550301').includes('News for Gus.'));
      expect(onTelegram(3001)).toHaveLength(telegramBefore);

      // And on Telegram again: the person's conversation, answered on Telegram.
      await sayOnTelegram(3001, 'hi');
      await eventually('an answer on Telegram', () => onTelegram(3001).length > telegramBefore);
      const transcript = await server.store.readTranscript('whatsapp:16505550301', 0, 100);
      expect(transcript.filter((entry) => entry.from === 'user').map((entry) => entry.message)).toEqual(
        expect.arrayContaining([
          { type: 'text', text: 'hello' },
          { type: 'text', text: 'hi' },
        ]),
      );

      const exported = await fetch(`${server.url}/api/management/export/userData`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      const rows = (await exported.json()) as { userId: string; linkedAddresses: unknown }[];
      expect(rows.find((row) => row.userId === 'whatsapp:16505550301')?.linkedAddresses).toEqual([
        { channelId: 'whatsapp', userId: 'whatsapp:16505550301' },
        { channelId: 'telegram', userId: 'telegram:3001' },
      ]);
    });

    it('when a person with a Telegram address is shown a code and it arrives on another Telegram chat, then nothing is linked', async () => {
      const first = await codeOnWhatsApp('16505550302', 'Hal');
      await sayOnTelegram(3002, '/start');
      await eventually('the Telegram greeting', () => onTelegram(3002).includes('Your name?'));
      await sayOnTelegram(3002, first);
      await eventually('the welcome on Telegram', () => onTelegram(3002).includes('Welcome back, Hal from Oslo.'));
      // The person is shown a new code, on Telegram where they wrote last, and it arrives on a second Telegram chat.
      await trigger('whatsapp:16505550302', 'whatsapp', 'home');
      await eventually(
        'the question on Telegram',
        () => onTelegram(3002).filter((t) => t === 'Your name?').length === 2,
      );
      await sayOnTelegram(3002, 'Hal');
      await eventually('the city question', () => onTelegram(3002).filter((t) => t === 'Your city?').length === 1);
      await sayOnTelegram(3002, 'Oslo');
      const second = await eventually('the code on Telegram', () =>
        onTelegram(3002).find((text) => LINK_CODE.test(text)),
      );
      await sayOnTelegram(3003, '/start');
      await eventually('the greeting', () => onTelegram(3003).includes('Your name?'));
      await sayOnTelegram(3003, LINK_CODE.exec(second)![1]!);
      // Not linked: the code is the other chat's answer to its own question.
      await eventually('the code taken as an answer', () => onTelegram(3003).includes('Your city?'));
      const exported = await fetch(`${server.url}/api/management/export/userData`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      const rows = (await exported.json()) as { userId: string; linkedAddresses: unknown }[];
      expect(rows.find((row) => row.userId === 'telegram:3003')?.linkedAddresses ?? null).toBeNull();
      expect(rows.find((row) => row.userId === 'whatsapp:16505550302')?.linkedAddresses).toHaveLength(2);
      expect(server.logs.some((line) => line.event === 'link_refused' && line.reason === 'channel_taken')).toBe(true);
    });

    it('when both had written today before the code linked them, then insights count the person as one active user', async () => {
      const before = await activeToday(server);
      const code = await codeOnWhatsApp('16505550304', 'Ivo');
      await sayOnTelegram(3004, 'Ivo');
      // The answer to the start dialog's question: the message's own turn has run.
      await eventually('the Telegram question', () => onTelegram(3004).includes('Your city?'));
      expect(await activeToday(server)).toBe(before + 2);
      await sayOnTelegram(3004, code);
      await eventually('the welcome on Telegram', () => onTelegram(3004).includes('Welcome back, Ivo from Oslo.'));
      await sayOnTelegram(3004, 'thanks');
      await eventually('an answer', () => onTelegram(3004).length > 3);
      expect(await activeToday(server)).toBe(before + 1);
    });
  });
}
