import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import type { StoreCommand } from '../../stores/mongo/mongo-store.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestClient,
} from '../../test/start-test-server.ts';

const ECHO_BOT = path.join(import.meta.dirname, '..', '..', 'app', 'test', 'fixtures', 'echo-bot.json');
const mongo = storeLegs().find((leg) => leg.name === 'mongo')!;

/*
 * After a restart every widget comes back at once: each reconnect is replayed what it missed,
 * has its conversation checked and resends what was not acked. On MongoDB each read of the user
 * document is a round trip per widget, hundreds at once (bench/restart-round-trips.ts): one read
 * serves the replay, the check and the resent message's turn (five reads before, three for a new message). Counted with the driver's command
 * monitoring, on a server started afresh on the same database, as after a restart.
 */
describe.skipIf(mongo.skip)('reads of the user when a widget returns to a restarted server (mongo)', () => {
  let dir: string;
  let env: Record<string, string>;
  let session: Session;
  let lastSeq = 0;
  const commands: StoreCommand[] = [];
  let counting = false;
  const start = () => startTestServer(env, dir, { onStoreCommand: (command) => counting && commands.push(command) });
  const userReads = () =>
    commands.filter(
      (c) =>
        c.name === 'find' &&
        c.collection === 'users' &&
        (c.command.filter as { _id?: unknown } | undefined)?._id === session.userId,
    ).length;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'reconnect-reads-'));
    env = { ...mongo.env(), BOT_DEFINITION: ECHO_BOT, SESSION_SECRET: 'reconnect-reads-session-secret-0123456789' };
    const first = await start();
    const client = connectClient(first.url);
    session = await new Promise<Session>((resolve) => client.once('session', resolve));
    await eventually('the prompt', () => botTexts(client.items).includes('Say something.'));
    await send(client, 'm1', 'one');
    await eventually('the answer', () => botTexts(client.items).includes('You said: one'));
    lastSeq = Math.max(...client.items.map((item) => item.seq));
    client.disconnect();
    await first.stop();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when a widget that missed the last answer reconnects and resends a message it saw no ack for, then it is replayed and answered once, and the user is read once', async () => {
    const server = await start();
    try {
      commands.length = 0;
      counting = true;
      // It missed the answer to "one" (a kill cut the delivery short); "two" was sent as the server died.
      const client = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq: lastSeq - 1 });
      await new Promise<void>((resolve) => client.once('connect', resolve));
      const ack = await send(client, 'm2', 'two');
      await eventually('the answer to the resent message', () => botTexts(client.items).includes('You said: two'));
      counting = false;
      expect(ack).toMatchObject({ ok: true });
      // The missed entry (the prompt after "one") replayed, then the answer to "two" and the next prompt.
      expect(botTexts(client.items)).toStrictEqual(['Say something.', 'You said: two', 'Say something.']);
      expect(userReads()).toBe(1);
      client.disconnect();
    } finally {
      counting = false;
      await server.stop();
    }
  });

  it('when a widget reconnects and resends a message the server stored before it died, then the stored message is acked once, not answered again, and the user is read twice', async () => {
    const server = await start();
    try {
      commands.length = 0;
      counting = true;
      const seqBefore = (await server.store.getUser(session.userId))!.lastSeq;
      commands.length = 0;
      const client = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq: seqBefore });
      await new Promise<void>((resolve) => client.once('connect', resolve));
      const ack = await send(client, 'm2', 'two');
      counting = false;
      expect(ack).toMatchObject({ ok: true, value: { duplicate: true } });
      expect(
        (await server.store.readTranscript(session.userId, 0, 100)).filter((e) => e.clientId === 'm2'),
      ).toHaveLength(1);
      expect((await server.store.getUser(session.userId))!.lastSeq).toBe(seqBefore);
      // The connect's read, and the replay of what the stored message's turn left (resend-replay.ts), which reads
      // the user again: that turn may have been committed by a node that died after the connect's read.
      expect(userReads()).toBe(2);
      client.disconnect();
    } finally {
      counting = false;
      await server.stop();
    }
  });

  it('when a widget that is up to date reconnects and writes, then the turn neither reads the user again nor looks for the highest stored entry', async () => {
    const server = await start();
    try {
      const upTo = (await server.store.getUser(session.userId))!.lastSeq;
      commands.length = 0;
      counting = true;
      const client = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq: upTo });
      await new Promise<void>((resolve) => client.once('connect', resolve));
      const ack = await send(client, 'm3', 'three');
      await eventually('the answer', () => botTexts(client.items).includes('You said: three'));
      counting = false;
      expect(ack).toMatchObject({ ok: true, value: { duplicate: false } });
      expect(client.items.every((item) => item.seq > upTo)).toBe(true);
      expect(userReads()).toBe(1);
      // What a crash may have left is seen from the replay's read (it includes the entry at the widget's lastSeq).
      // (stores/mongo/unsent-entries.ts topSeq: the user's entries by seq, highest first, with no other condition).
      const highestSeqReads = commands.filter((c) => {
        const filter = (c.command.filter ?? {}) as Record<string, unknown>;
        return (
          c.name === 'find' &&
          c.collection === 'transcript' &&
          filter.userId === session.userId &&
          !('seq' in filter) &&
          !('dedupKey' in filter)
        );
      });
      expect(highestSeqReads).toHaveLength(0);
      client.disconnect();
    } finally {
      counting = false;
      await server.stop();
    }
  });

  it('when a widget writes again soon after its last answer, then that turn starts from the user the last one committed and reads them no more', async () => {
    const server = await start();
    try {
      const upTo = (await server.store.getUser(session.userId))!.lastSeq;
      commands.length = 0;
      counting = true;
      const client = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq: upTo });
      await new Promise<void>((resolve) => client.once('connect', resolve));
      for (const text of ['four', 'five', 'six']) {
        expect(await send(client, `q-${text}`, text)).toMatchObject({ ok: true, value: { duplicate: false } });
        await eventually(`the answer to ${text}`, () => botTexts(client.items).includes(`You said: ${text}`));
      }
      counting = false;
      // The connect's read serves the first message; each committed turn serves the next.
      expect(userReads()).toBe(1);
      client.disconnect();
    } finally {
      counting = false;
      await server.stop();
    }
  });
});

function send(client: TestClient, clientId: string, text: string): Promise<unknown> {
  return new Promise((resolve) => client.emit('message', { clientId, text }, resolve));
}
