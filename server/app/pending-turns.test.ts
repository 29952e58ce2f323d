import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnCommit } from '../ports/store.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../test/start-test-server.ts';

const ECHO_BOT = path.join(import.meta.dirname, 'test', 'fixtures', 'echo-bot.json');

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`a turn the store fails (${leg.name})`, () => {
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.stop();
      server = undefined;
    });

    it("when the store fails a message's turn, then the message is acked and shown, and answered once shortly after", async () => {
      server = await startTestServer({ ...leg.env(), BOT_DEFINITION: ECHO_BOT });
      const { store } = server;
      const commit = store.commitTurn.bind(store);
      let failed = 0;
      store.commitTurn = (turn: TurnCommit) => {
        if (turn.userEntry?.clientId === 'c-fail') {
          failed += 1;
          return Promise.reject(new Error('the store is busy'));
        }
        return commit(turn);
      };
      const client = connectClient(server.url);
      const session = new Promise<{ userId: string }>((resolve) => client.once('session', resolve));
      await eventually('the prompt', () => botTexts(client.items).includes('Say something.'));

      const ack = await client.emitWithAck('message', { clientId: 'c-fail', text: 'hello' });
      expect(ack).toMatchObject({ ok: true, value: { duplicate: false } });
      expect(failed).toBe(1);
      await eventually(
        'the answer from the second run',
        () => botTexts(client.items).includes('You said: hello'),
        15_000,
      );
      // The widget resends what it saw no ack for: by then it is answered, and not again.
      expect(await client.emitWithAck('message', { clientId: 'c-fail', text: 'hello' })).toMatchObject({
        ok: true,
        value: { duplicate: true },
      });
      expect(await client.emitWithAck('message', { clientId: 'c-next', text: 'next' })).toMatchObject({ ok: true });
      await eventually('the next answer', () => botTexts(client.items).includes('You said: next'));

      const { userId } = await session;
      const transcript = await store.readTranscript(userId, 0, 100);
      const texts = transcript.map((e) => String((e.message as { text?: unknown }).text));
      expect(texts.filter((t) => t === 'hello')).toHaveLength(1);
      expect(texts.filter((t) => t === 'You said: hello')).toHaveLength(1);
      expect(texts.indexOf('hello')).toBeLessThan(texts.indexOf('You said: hello'));
      expect((await store.getUser(userId))?.pendingSeq).toBeUndefined();
      expect(server.logs.filter((l) => l.event === 'turn_failed')).toEqual([expect.objectContaining({ level: 50 })]);
      client.disconnect();
    });

    it('when the store fails every turn for a while, then every message of every user is answered once after it recovers', async () => {
      server = await startTestServer({ ...leg.env(), BOT_DEFINITION: ECHO_BOT, WEBCHAT_RATE_LIMIT: '10000' });
      const { store } = server;
      const commit = store.commitTurn.bind(store);
      let down = false;
      store.commitTurn = (turn: TurnCommit) =>
        down && turn.userEntry ? Promise.reject(new Error('write conflict, try again')) : commit(turn);
      const clients = Array.from({ length: 12 }, () => connectClient(server!.url));
      await eventually(
        'every prompt',
        () => clients.every((c) => botTexts(c.items).includes('Say something.')),
        15_000,
      );

      down = true;
      const acks = await Promise.all(
        clients.map((c, i) => c.emitWithAck('message', { clientId: `m${i}`, text: `during ${i}` })),
      );
      down = false;
      expect(acks.every((a) => a.ok)).toBe(true);
      await eventually(
        'every answer',
        () => clients.every((c, i) => botTexts(c.items).includes(`You said: during ${i}`)),
        20_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const [i, c] of clients.entries())
        expect(botTexts(c.items).filter((t) => t === `You said: during ${i}`)).toHaveLength(1);
      for (const c of clients) c.disconnect();
    });
  });
}
