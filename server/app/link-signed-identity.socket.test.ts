import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandshakeAuth } from '../../shared/protocol.ts';
import { userHashFor } from '../channels/webchat/identity.ts';
import {
  TEST_FUNCTION_KEY,
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../test/start-test-server.ts';
import type { WhatsAppCloudStandIn } from '../channels/test/vendors/whatsapp/whatsapp-cloud-stand-in.ts';

import {
  activeToday,
  startWhatsApp,
  userMessagesToday,
  whatsAppEnv,
  whatsAppUsers,
} from '../channels/test/vendors/whatsapp/whatsapp-users.ts';

const SECRET = 'identity-secret-0123456789';

/** A bot with no link-channels step: only the site's signed phone number links (BOT_IDENTITY_LINK_PHONE). */
const bot = {
  settings: { id: 'signed-bot', name: 'Signed identity test bot', startDialog: 'home' },
  userDataFields: ['name', 'city', 'phoneNumber', 'email'],
  dialogs: [
    {
      id: 'home',
      steps: [
        { id: 'name', type: 'input', prompt: 'Your name?', inputType: 'text', saveTo: { userData: 'name' } },
        { id: 'city', type: 'input', prompt: 'Your city?', inputType: 'text', saveTo: { userData: 'city' } },
        { id: 'thanks', type: 'message', text: 'Thanks, {{name}} from {{city}}.' },
        { id: 'done', type: 'end' },
      ],
    },
    {
      id: 'news',
      steps: [
        { id: 'say', type: 'message', text: 'News for {{name}}.' },
        { id: 'end', type: 'end' },
      ],
    },
  ],
};

const signed = (userId: string, phone?: string): NonNullable<HandshakeAuth['identity']> => ({
  userId,
  userHash: userHashFor(SECRET, userId, phone),
  ...(phone ? { phone } : {}),
});

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`a signed identity links the web chat (${leg.name})`, () => {
    let whatsApp: WhatsAppCloudStandIn;
    let server: TestServer;
    let dir: string;
    const { texts, say } = whatsAppUsers(
      () => whatsApp,
      () => server.url,
    );
    /** A WhatsApp user who gave their name and is asked their city. */
    async function onWhatsApp(waId: string, name: string): Promise<void> {
      await say(waId, name);
      await eventually('the second question', () => texts(waId).includes('Your city?'));
    }
    /** Who a widget opened with `auth` speaks for, or why it was refused. */
    async function open(auth: HandshakeAuth) {
      const client = connectClient(server.url, auth);
      const outcome = await new Promise<{ userId: string } | { refused: unknown }>((resolve) => {
        client.once('session', (session: { userId: string }) => resolve(session));
        client.once('connect_error', (error: Error & { data?: unknown }) => resolve({ refused: error.data }));
      });
      return { client, outcome };
    }
    const send = (client: ReturnType<typeof connectClient>, text: string) =>
      client.emitWithAck('message', { clientId: `c-${Math.random()}`, text });
    /** Triggers the news dialog for a WhatsApp address: the endpoint's answer. */
    async function triggerNews(waId: string): Promise<unknown> {
      const address = Buffer.from(
        JSON.stringify({ bot: 'signed-bot', user: `whatsapp:${waId}`, channelId: 'whatsapp' }),
      ).toString('base64url');
      const response = await fetch(`${server.url}/api/management/trigger/${address}/news`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(response.status).toBe(202);
      return response.json();
    }

    beforeAll(async () => {
      whatsApp = await startWhatsApp();
      dir = await mkdtemp(path.join(tmpdir(), 'signed-link-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(bot));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        BOT_IDENTITY_SECRET: SECRET,
        BOT_IDENTITY_LINK_PHONE: 'true',
        ...whatsAppEnv(whatsApp),
      });
    });

    afterAll(async () => {
      await server?.stop();
      await whatsApp?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("when the site signs a phone number a WhatsApp user wrote from, then the web chat goes on with that user's dialog", async () => {
      await onWhatsApp('16505550201', 'Ada');
      const { client, outcome } = await open({
        identity: signed('shop-201', '+16505550201'),
        user: { email: 'ada@example.com' },
      });
      expect(outcome).toEqual(expect.objectContaining({ userId: 'whatsapp:16505550201' }));
      // The WhatsApp transcript is the web chat's: the question asked there is the one answered here.
      await eventually('the question in the web chat', () => botTexts(client.items).includes('Your city?'));
      expect(await send(client, 'Porto')).toMatchObject({ ok: true });
      await eventually('the answer in the web chat', () => botTexts(client.items).includes('Thanks, Ada from Porto.'));
      expect(texts('16505550201')).not.toContain('Thanks, Ada from Porto.');
      const person = await server.store.getUser('whatsapp:16505550201');
      expect(person?.userData).toMatchObject({ name: 'Ada', city: 'Porto', email: 'ada@example.com' });
      client.close();
      // The userData export lists the person's addresses, though the bot has no link-channels step.
      const exported = await fetch(`${server.url}/api/management/export/userData`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      const rows = (await exported.json()) as { userId: string; linkedAddresses: unknown }[];
      expect(rows.find((row) => row.userId === 'whatsapp:16505550201')?.linkedAddresses).toEqual([
        { channelId: 'whatsapp', userId: 'whatsapp:16505550201' },
        { channelId: 'webchat', userId: 'shop-201' },
      ]);
      // Another device with the same signed identity speaks for the same person.
      const again = await open({ identity: signed('shop-201', '+16505550201') });
      expect(again.outcome).toEqual(expect.objectContaining({ userId: 'whatsapp:16505550201' }));
      again.client.close();
    });

    it('when the number has no channel user yet, then nothing is linked until that user has written', async () => {
      const first = await open({ identity: signed('shop-202', '+16505550202') });
      expect(first.outcome).toEqual(expect.objectContaining({ userId: 'shop-202' }));
      first.client.close();
      await onWhatsApp('16505550202', 'Bea');
      const later = await open({ identity: signed('shop-202', '+16505550202') });
      expect(later.outcome).toEqual(expect.objectContaining({ userId: 'whatsapp:16505550202' }));
      later.client.close();
    });

    it('when a browser adds a phone number to an identity signed without one, then the chat is refused and nothing is linked', async () => {
      await onWhatsApp('16505550203', 'Cy');
      const forged = { ...signed('attacker-1'), phone: '+16505550203' };
      const { client, outcome } = await open({ identity: forged });
      expect(outcome).toEqual({ refused: { code: 'unauthorized', message: expect.stringMatching(/phone/) } });
      client.close();
      // Signed for another number, or with another secret: refused too.
      const other = await open({ identity: { ...signed('attacker-1', '+16505559999'), phone: '+16505550203' } });
      expect(other.outcome).toEqual({ refused: expect.objectContaining({ code: 'unauthorized' }) });
      other.client.close();
      const wrongKey = await open({
        identity: {
          userId: 'attacker-1',
          phone: '+16505550203',
          userHash: userHashFor('another-secret-0123', 'attacker-1', '+16505550203'),
        },
      });
      expect(wrongKey.outcome).toEqual({ refused: expect.objectContaining({ code: 'unauthorized' }) });
      wrongKey.client.close();
      expect(await server.store.getUser('attacker-1')).toBeNull();
    });

    it('when a phone number is only claimed (unsigned page data, or typed), then nothing is linked', async () => {
      await onWhatsApp('16505550204', 'Di');
      const unsigned = await open({ user: { phoneNumber: '+16505550204' } });
      const own = (unsigned.outcome as { userId: string }).userId;
      expect(own).not.toBe('whatsapp:16505550204');
      await eventually('the web greeting', () => botTexts(unsigned.client.items).includes('Your name?'));
      await send(unsigned.client, '+16505550204');
      unsigned.client.close();
      // A signed identity without a number, whose user typed one: still their own.
      const typed = await open({ identity: signed('shop-204') });
      expect(typed.outcome).toEqual(expect.objectContaining({ userId: 'shop-204' }));
      await eventually('the web greeting', () => botTexts(typed.client.items).includes('Your name?'));
      await send(typed.client, '+16505550204');
      typed.client.close();
      const again = await open({ identity: signed('shop-204') });
      expect(again.outcome).toEqual(expect.objectContaining({ userId: 'shop-204' }));
      again.client.close();
      expect(texts('16505550204')).not.toContain('Thanks, Di from +16505550204.');
    });

    it('when the number is an SMS sender (which can be spoofed), then it links nothing', async () => {
      await server.store.ensureUser({
        userId: 'twilio-sms:+16505550205',
        channelId: 'twilio-sms',
        userData: {},
        variables: {},
        now: Date.now(),
      });
      const { client, outcome } = await open({ identity: signed('shop-205', '+16505550205') });
      expect(outcome).toEqual(expect.objectContaining({ userId: 'shop-205' }));
      client.close();
    });

    it('when both had written today before the link, then insights count the person as one active user', async () => {
      const before = await activeToday(server);
      const first = await open({ identity: signed('shop-206', '+16505550206') });
      await eventually('the web greeting', () => botTexts(first.client.items).includes('Your name?'));
      await send(first.client, 'Zed');
      first.client.close();
      await onWhatsApp('16505550206', 'Zed');
      expect(await activeToday(server)).toBe(before + 2);
      const linked = await open({ identity: signed('shop-206', '+16505550206') });
      expect(linked.outcome).toEqual(expect.objectContaining({ userId: 'whatsapp:16505550206' }));
      await send(linked.client, 'Rome');
      await eventually('the answer', () => botTexts(linked.client.items).includes('Thanks, Zed from Rome.'));
      linked.client.close();
      expect(await activeToday(server)).toBe(before + 1);
    });

    it('when a person linked by a signed identity has the web chat open, then a trigger naming them reaches the web chat at once though they last wrote on WhatsApp; once it is closed, WhatsApp', async () => {
      await onWhatsApp('16505550208', 'Fay');
      const linked = await open({ identity: signed('shop-208', '+16505550208') });
      expect(linked.outcome).toEqual(expect.objectContaining({ userId: 'whatsapp:16505550208' }));
      expect(await triggerNews('16505550208')).toMatchObject({ userId: 'whatsapp:16505550208', delivery: 'live' });
      await eventually('the news in the web chat', () => botTexts(linked.client.items).includes('News for Fay.'));
      expect(texts('16505550208')).not.toContain('News for Fay.');
      linked.client.close();
      await eventually('the web chat closed', () =>
        server.logs.some((line) => line.event === 'socket_disconnect' && line.userId === 'whatsapp:16505550208'),
      );
      await triggerNews('16505550208');
      await eventually('the news on WhatsApp', () => texts('16505550208').includes('News for Fay.'));
    });

    it('when a linked person writes on WhatsApp and in the web chat, then insights count each message under the channel it came in on', async () => {
      const before = await userMessagesToday(server);
      const grown = async () => {
        const now = await userMessagesToday(server);
        return {
          whatsapp: (now.whatsapp ?? 0) - (before.whatsapp ?? 0),
          webchat: (now.webchat ?? 0) - (before.webchat ?? 0),
        };
      };
      await onWhatsApp('16505550207', 'Eve');
      const linked = await open({ identity: signed('shop-207', '+16505550207') });
      expect(linked.outcome).toEqual(expect.objectContaining({ userId: 'whatsapp:16505550207' }));
      await send(linked.client, 'Oslo');
      await eventually('the answer', () => botTexts(linked.client.items).includes('Thanks, Eve from Oslo.'));
      linked.client.close();
      expect(await grown()).toEqual({ whatsapp: 1, webchat: 1 });
      await say('16505550207', 'Hello again');
      // Its turn runs from the queue: counted once it has run.
      await eventually('the message counted', async () => (await grown()).whatsapp === 2);
      expect(await grown()).toEqual({ whatsapp: 2, webchat: 1 });
    });
  });
}
