import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandshakeAuth } from '../../shared/protocol.ts';
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
import { MAX_LINK_MISSES } from './link-channels.ts';
import { linkingBot } from './test/linking-bot.ts';
import {
  LINK_CODE,
  startWhatsApp,
  whatsAppEnv,
  whatsAppUsers,
} from '../channels/test/vendors/whatsapp/whatsapp-users.ts';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`one conversation across channels (${leg.name})`, () => {
    let whatsApp: WhatsAppCloudStandIn;
    let server: TestServer;
    let dir: string;
    const { texts, say } = whatsAppUsers(
      () => whatsApp,
      () => server.url,
    );

    /** A WhatsApp user answers the name and the city, and is shown a code: the code. */
    async function codeOnWhatsApp(waId: string, name: string): Promise<string> {
      // A new user's first message opens the conversation and is its first answer.
      await say(waId, name);
      await eventually('the second question', () => texts(waId).includes('Your city?'));
      await say(waId, 'Lisbon');
      const shown = await eventually('the code', () => texts(waId).find((text) => LINK_CODE.test(text)));
      return LINK_CODE.exec(shown)![1]!;
    }

    /** A web chat visitor, started: their session. */
    async function webVisitor(): Promise<{ client: ReturnType<typeof connectClient>; auth: HandshakeAuth }> {
      const client = connectClient(server.url);
      const session = await new Promise<{ userId: string; token: string }>((resolve) =>
        client.once('session', resolve),
      );
      await eventually('the web greeting', () => botTexts(client.items).includes('Your name?'));
      return { client, auth: { userId: session.userId, token: session.token } };
    }

    const send = (client: ReturnType<typeof connectClient>, text: string) =>
      client.emitWithAck('message', { clientId: `c-${Math.random()}`, text });

    /** Who a returning widget with `auth` speaks for now, and what it is shown. */
    async function reconnect(auth: HandshakeAuth) {
      const client = connectClient(server.url, auth);
      const session = await new Promise<{ userId: string }>((resolve) => client.once('session', resolve));
      return { client, userId: session.userId };
    }

    beforeAll(async () => {
      whatsApp = await startWhatsApp();
      dir = await mkdtemp(path.join(tmpdir(), 'linking-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(linkingBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        ...whatsAppEnv(whatsApp),
      });
    });

    afterAll(async () => {
      await server?.stop();
      await whatsApp?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a WhatsApp user types the code shown there in the web chat, then the web chat goes on with the same dialog and their answers known', async () => {
      const code = await codeOnWhatsApp('16505550101', 'Ada');
      const { client, auth } = await webVisitor();
      const ack = await send(client, code.toLowerCase());
      expect(ack).toMatchObject({ ok: true });
      client.close();
      const again = await reconnect(auth);
      expect(again.userId).toBe('whatsapp:16505550101');
      await eventually('the welcome in the web chat', () =>
        botTexts(again.client.items).includes('Welcome back, Ada from Lisbon.'),
      );
      // The earlier answers, given on WhatsApp, are the web chat's transcript now.
      expect(again.client.items.filter((item) => item.from === 'user').map((item) => item.message)).toEqual(
        expect.arrayContaining([
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'Lisbon' },
        ]),
      );
      // The answer went where the user wrote: not to WhatsApp.
      expect(texts('16505550101')).not.toContain('Welcome back, Ada from Lisbon.');

      // A trigger reaches the person where they wrote last: the web chat.
      const address = Buffer.from(
        JSON.stringify({ bot: 'linking-bot', user: 'whatsapp:16505550101', channelId: 'whatsapp' }),
      ).toString('base64url');
      const triggered = await fetch(`${server.url}/api/management/trigger/${address}/news`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(triggered.status).toBe(202);
      expect(await triggered.json()).toMatchObject({ userId: 'whatsapp:16505550101', delivery: 'live' });
      await eventually('the news in the web chat', () => botTexts(again.client.items).includes('News for Ada.'));
      expect(texts('16505550101')).not.toContain('News for Ada.');

      // The userData export lists the person's addresses.
      const exported = await fetch(`${server.url}/api/management/export/userData`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      const rows = (await exported.json()) as { userId: string; linkedAddresses: unknown }[];
      expect(rows.find((row) => row.userId === 'whatsapp:16505550101')?.linkedAddresses).toEqual([
        { channelId: 'whatsapp', userId: 'whatsapp:16505550101' },
        { channelId: 'webchat', userId: auth.userId },
      ]);

      // Erasing the person erases every address of theirs.
      again.client.close();
      const erased = await fetch(`${server.url}/api/management/users/${encodeURIComponent(auth.userId!)}`, {
        method: 'DELETE',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(erased.status).toBe(200);
      expect(((await erased.json()) as { erased: { user: number } }).erased.user).toBe(2);
      expect(await server.store.getUser('whatsapp:16505550101')).toBeNull();
      expect(await server.store.getUser(auth.userId!)).toBeNull();
    });

    it("when someone types another user's phone number in the web chat, then nothing is linked", async () => {
      await codeOnWhatsApp('16505550102', 'Bea');
      const { client, auth } = await webVisitor();
      await send(client, '+16505550102');
      await send(client, '16505550102');
      client.close();
      expect((await reconnect(auth)).userId).toBe(auth.userId);
    });

    it('when a code is guessed past the try limit, then even the right code links nothing', async () => {
      const code = await codeOnWhatsApp('16505550103', 'Cy');
      const { client, auth } = await webVisitor();
      for (let i = 0; i < MAX_LINK_MISSES; i++) await send(client, `ZZZZ-ZZZ${'23456789'[i]}`);
      await send(client, code);
      client.close();
      const again = await reconnect(auth);
      expect(again.userId).toBe(auth.userId);
      again.client.close();
    });

    it('when a used code is typed again by someone else, then nothing is linked', async () => {
      const code = await codeOnWhatsApp('16505550104', 'Di');
      const first = await webVisitor();
      await send(first.client, code);
      first.client.close();
      expect((await reconnect(first.auth)).userId).toBe('whatsapp:16505550104');
      const second = await webVisitor();
      await send(second.client, code);
      second.client.close();
      expect((await reconnect(second.auth)).userId).toBe(second.auth.userId);
    });

    it("when a code shown to one WhatsApp user is typed on another user's WhatsApp, then nothing is linked", async () => {
      const code = await codeOnWhatsApp('16505550105', 'Ed');
      await codeOnWhatsApp('16505550106', 'Flo');
      await say('16505550106', code);
      // Two channels other than the web chat are not linked: the other user's dialog goes its own way.
      await eventually('the other user stays', () => texts('16505550106').includes('Fine, we stay here.'));
      const { client, auth } = await webVisitor();
      client.close();
      expect((await reconnect(auth)).userId).toBe(auth.userId);
    });
  });
}
