import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../../test/start-test-server.ts';
import { BOT_ID, FIXTURE_BOT, KEY, encodeAddress, keyed, startManagementServer } from './helpers.ts';

type Accepted = { userId: string; dialogId: string; mode: string | null; delivery: string };

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`trigger (${leg.name})`, () => {
    let server: TestServer;
    const post = (path: string, body?: unknown) =>
      fetch(
        `${server.url}${path}`,
        keyed({
          method: 'POST',
          ...(body === undefined
            ? {}
            : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        }),
      );
    const address = (user: string) => encodeAddress({ bot: BOT_ID, user, channelId: 'webchat' });

    beforeAll(async () => {
      server = await startManagementServer(leg.env());
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when the user is connected, then 202 live and the dialog shows the trigger data at once', async () => {
      const client = connectClient(server.url);
      const session = await new Promise<{ userId: string }>((resolve) => client.once('session', resolve));
      await eventually('greeting', () => botTexts(client.items).includes('Your name?'));
      const res = await post(`/api/management/trigger/${address(session.userId)}/operationSucceeded`, {
        transactionId: 'T-1001',
      });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({
        userId: session.userId,
        dialogId: 'operationSucceeded',
        mode: null,
        delivery: 'live',
      } satisfies Accepted);
      await eventually('the success message', () =>
        botTexts(client.items).includes('Your operation succeeded: transaction T-1001.'),
      );
      const user = await server.store.getUser(session.userId);
      expect(user?.userData.triggerData).toEqual({ transactionId: 'T-1001' });
      client.disconnect();
    });

    it('when the user is offline, then 202 queued and the messages arrive in order on the next connect', async () => {
      const first = connectClient(server.url);
      const session = await new Promise<{ userId: string; token: string }>((resolve) => first.once('session', resolve));
      await eventually('greeting', () => botTexts(first.items).includes('Your name?'));
      const lastSeq = Math.max(...first.items.map((i) => i.seq));
      first.disconnect();
      await eventually('the disconnect to be seen', async () => {
        const res = await post(`/api/trigger/${BOT_ID}/operationSucceeded?userId=${session.userId}`, {
          transactionId: 'T-1',
        });
        return ((await res.json()) as Accepted).delivery === 'queued';
      });
      const second = await post(`/api/management/trigger/${address(session.userId)}/operationFailed`);
      expect(second.status).toBe(202);
      // The disconnect check may itself have queued more than one T-1: wait for the failure message, the last trigger's.
      await eventually('both triggers to run', async () =>
        (await server.store.readTranscript(session.userId, lastSeq, 100)).some(
          (entry) =>
            (entry.message as { text?: string }).text === 'Sorry, the operation failed. Please try again later.',
        ),
      );

      const again = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq });
      await eventually('the replay', () => botTexts(again.items).length >= 2);
      // What the widget shows: one entry per seq, in seq order. A delivery can reach the socket
      // before the replay does (it joins its room first, so nothing falls between the two).
      const texts = botTexts(
        [...new Map(again.items.map((item) => [item.seq, item])).values()].sort((a, b) => a.seq - b.seq),
      );
      expect(texts.indexOf('Sorry, the operation failed. Please try again later.')).toBeGreaterThan(
        texts.indexOf('Your operation succeeded: transaction T-1.'),
      );
      expect(texts.indexOf('Your operation succeeded: transaction T-1.')).toBeGreaterThanOrEqual(0);
      again.disconnect();
    });

    it('when the user is new, then the trigger creates them and stores the body as triggerData', async () => {
      const res = await post(`/api/trigger/${BOT_ID}/operationSucceeded?userId=new-user-1`, {
        transactionId: 'T-9',
        amount: 3,
      });
      expect(res.status).toBe(202);
      expect(((await res.json()) as Accepted).delivery).toBe('queued');
      const transcript = await eventually('the dialog', async () => {
        const entries = await server.store.readTranscript('new-user-1', 0, 10);
        return entries.length > 0 && entries;
      });
      expect(transcript[0]!.message).toMatchObject({ text: 'Your operation succeeded: transaction T-9.' });
      expect((await server.store.getUser('new-user-1'))?.userData.triggerData).toEqual({
        transactionId: 'T-9',
        amount: 3,
      });
    });

    it('when mode is clear, then the position is reset and the dialog starts', async () => {
      const client = connectClient(server.url);
      const session = await new Promise<{ userId: string }>((resolve) => client.once('session', resolve));
      await eventually('greeting', () => botTexts(client.items).includes('Your name?'));
      expect((await server.store.getUser(session.userId))?.position).toMatchObject({
        dialogId: 'greeting',
        awaiting: true,
      });
      const res = await post(`/api/management/trigger/${address(session.userId)}/operationFailed/clear`);
      expect(res.status).toBe(202);
      expect(((await res.json()) as Accepted).mode).toBe('clear');
      await eventually('the error dialog', () =>
        botTexts(client.items).includes('Sorry, the operation failed. Please try again later.'),
      );
      expect((await server.store.getUser(session.userId))?.position ?? null).toBeNull();
      client.disconnect();
    });

    it('when the address is URL-safe, unpadded or percent-encoded, then it is understood', async () => {
      const user = 'addr/user?>>~'; // bytes whose base64 holds "/" and "+"
      const std = encodeAddress({ bot: BOT_ID, user, channelId: 'webchat' });
      expect(std).toMatch(/[+/]/);
      const variants = [
        encodeAddress({ bot: BOT_ID, user, channelId: 'webchat' }, 'base64url'),
        encodeURIComponent(std),
        encodeURIComponent(std).replace(/%3D/g, ''),
      ];
      for (const variant of variants) {
        const res = await post(`/api/management/trigger/${variant}/operationFailed`);
        expect(res.status, variant).toBe(202);
        expect(((await res.json()) as Accepted).userId).toBe(user);
      }
    });
  });

  describe.skipIf(leg.skip)(`trigger durability (${leg.name})`, () => {
    it('when the server stops right after answering 202, then the dialog still runs after a restart', async () => {
      const env = { BOT_DEFINITION: FIXTURE_BOT, ...leg.env() };
      const first = await startTestServer(env);
      await first.jobs.stop(); // nothing runs here: the trigger only exists in the store
      const res = await fetch(`${first.url}/api/trigger/${BOT_ID}/operationSucceeded?userId=durable-1&code=${KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transactionId: 'T-D' }),
      });
      expect(res.status).toBe(202);
      expect(await first.store.readTranscript('durable-1', 0, 10)).toEqual([]);
      await first.close();
      const second = await startTestServer(env, first.dataDir);
      try {
        const entries = await eventually('the dialog after restart', async () => {
          const found = await second.store.readTranscript('durable-1', 0, 10);
          return found.length > 0 && found;
        });
        expect(entries[0]!.message).toMatchObject({ text: 'Your operation succeeded: transaction T-D.' });
      } finally {
        await second.stop();
        await first.stop();
      }
    });
  });
}
