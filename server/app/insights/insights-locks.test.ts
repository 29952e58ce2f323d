import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoreCommand } from '../../stores/mongo/mongo-store.ts';
import { botTexts, connectClient, eventually, startTestServer, storeLegs } from '../../test/start-test-server.ts';

const ECHO_BOT = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'echo-bot.json');
const mongo = storeLegs().find((leg) => leg.name === 'mongo')!;

/*
 * Without REDIS_URL one process writes the database, and its locks stay in memory
 * (MongoStoreOptions.shared): a lock in the store is two writes more per locked write. The
 * insights' conversation buckets and counters took theirs in the store all the same, about
 * 4 % of the commands after a 200-user restart. Counted with the driver's command monitoring
 * over a server's whole life, its last flush of the insights included.
 */
describe.skipIf(mongo.skip)('store locks of a single node (mongo)', () => {
  it('when one server writes the database and records a conversation for insights, then it writes no lock in the store', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'insights-locks-'));
    const commands: StoreCommand[] = [];
    const env = {
      ...mongo.env(),
      BOT_DEFINITION: ECHO_BOT,
      SESSION_SECRET: 'insights-locks-session-secret-0123456789',
    };
    const server = await startTestServer(env, dir, { onStoreCommand: (command) => commands.push(command) });
    try {
      const client = connectClient(server.url);
      await eventually('the prompt', () => botTexts(client.items).includes('Say something.'));
      const ack = await new Promise((resolve) => client.emit('message', { clientId: 'm1', text: 'hello' }, resolve));
      expect(ack).toMatchObject({ ok: true });
      await eventually('the answer', () => botTexts(client.items).includes('You said: hello'));
      client.disconnect();
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
    const insightWrites = commands.filter(
      (c) => c.collection?.startsWith('insight_') && c.name !== 'find' && c.name !== 'listIndexes',
    );
    // The conversation was recorded (so a lock, had one been taken, would show below).
    expect(insightWrites.length).toBeGreaterThan(0);
    const lockWrites = commands.filter(
      (c) => c.collection === 'locks' && ['insert', 'update', 'delete', 'findAndModify'].includes(c.name),
    );
    expect(lockWrites.map((c) => c.name)).toStrictEqual([]);
  });
});
