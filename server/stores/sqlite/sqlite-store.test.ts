import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { sqliteInsights } from './sqlite-insights.ts';
import { eventually } from '../../test/start-test-server.ts';

describe('openSqliteStore', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sqlite-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when a file is opened, then it is migrated to the latest version in WAL mode and reopens with its data', async () => {
    const file = join(dir, 'store.db');
    const store = openSqliteStore({ file });
    await store.ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    await store.close();
    const raw = openDatabase(file, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    const again = openSqliteStore({ file });
    expect((await again.getUser('u1'))?.userId).toBe('u1');
    await again.close();
  });

  it('when a file from the first schema version is opened, then it is upgraded and its due jobs are still claimed in order', async () => {
    const file = join(dir, 'v1.db');
    const raw = openDatabase(file);
    raw.exec(MIGRATIONS[0]!.sql);
    raw.pragma(`user_version = ${MIGRATIONS[0]!.version}`);
    const insert = raw.prepare(
      `INSERT INTO jobs (id, kind, payload, run_at, status, attempts, max_attempts) VALUES (?, 'k', '{}', 5, 'pending', 0, 1)`,
    );
    for (const id of ['b', 'a', 'c']) insert.run(id);
    raw.close();
    const store = openSqliteStore({ file });
    const claimed = await store.claimJobs({ workerId: 'w', now: 10, leaseMs: 1000, limit: 10 });
    expect(claimed.map((job) => job.id)).toEqual(['a', 'b', 'c']);
    await store.close();
    const again = openDatabase(file, { readonly: true });
    expect(again.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    again.close();
  });

  it('when a file from schema version 2 is opened, then its users and jobs are kept, unmarked and ungrouped, and new triggers are grouped', async () => {
    const file = join(dir, 'v2.db');
    const raw = openDatabase(file);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 2)) raw.exec(migration.sql);
    raw.pragma('user_version = 2');
    raw
      .prepare(
        `INSERT INTO users (user_id, channel_id, position, variables, user_data, last_message_at, created_at, updated_at, version, last_seq)
       VALUES ('old', 'webchat', NULL, '{}', '{"name":"Ada"}', NULL, 1, 1, 3, 2)`,
      )
      .run();
    raw
      .prepare(
        `INSERT INTO jobs (id, kind, payload, run_at, status, attempts, max_attempts) VALUES ('trigger:1', 'trigger', '{}', 5, 'pending', 0, 5)`,
      )
      .run();
    raw.close();
    const store = openSqliteStore({ file });
    expect(await store.getUser('old')).toMatchObject({
      version: 3,
      lastSeq: 2,
      userData: { name: 'Ada' },
      lastTrigger: null,
    });
    expect(await store.getJob('trigger:1')).toMatchObject({ status: 'pending', group: null });
    await store.scheduleJob({ id: 'trigger:2', kind: 'trigger', payload: {}, runAt: 5, group: 'trigger:old' });
    expect(await store.firstUnfinishedJob('trigger:old', '', 'trigger:3')).toMatchObject({ id: 'trigger:2' });
    const committed = await store.commitTurn({
      userId: 'old',
      expectedVersion: 3,
      patch: { lastTrigger: 'trigger:2' },
      now: 9,
      botEntries: [],
    });
    expect(committed.status === 'committed' && committed.user.lastTrigger).toBe('trigger:2');
    await store.close();
  });

  it('when a file from schema version 14 is opened, then its insights conversations are kept, found by the search newest first, by a user-data field and by their user, and written again in place', async () => {
    const file = join(dir, 'v14.db');
    const raw = openDatabase(file);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 14)) raw.exec(migration.sql);
    raw.pragma('user_version = 14');
    const summary = (userId: string, startedAt: number) => ({
      userId,
      startedAt,
      lastAt: startedAt + 5,
      channel: 'webchat',
      version: 'v1',
      lastVersion: 'v1',
      steps: ['d/s'],
      lastStep: 'd/s',
      integrationError: false,
      messages: 1,
      text: `hello from ${userId}`,
      userData: { plan: userId === 'bob' ? 'pro' : 'free' },
      events: [],
    });
    const insert = raw.prepare(
      'INSERT INTO insight_conversations (user_id, started_at, last_at, channel, error, text, steps, summary) VALUES (?, ?, ?, ?, 0, ?, ?, ?)',
    );
    for (const [userId, startedAt] of [
      ['ann', 100],
      ['bob', 300],
      ['ann', 200],
    ] as const)
      insert.run(
        userId,
        startedAt,
        startedAt + 5,
        'webchat',
        `hello from ${userId}`,
        '|d/s|',
        JSON.stringify(summary(userId, startedAt)),
      );
    raw.close();
    const store = openSqliteStore({ file });
    const room = sqliteInsights(store.db);
    const page = await room.searchConversations({ fromMs: 0, toMs: 1000, limit: 10 });
    expect(page.items.map((c) => [c.userId, c.startedAt])).toEqual([
      ['bob', 300],
      ['ann', 200],
      ['ann', 100],
    ]);
    expect((await room.conversationsOf('ann', 10)).map((c) => c.startedAt)).toEqual([200, 100]);
    expect(
      (
        await room.searchConversations({ fromMs: 0, toMs: 1000, limit: 10, field: { name: 'plan', value: 'pro' } })
      ).items.map((c) => c.userId),
    ).toEqual(['bob']);
    await room.record({ counts: [], conversations: [{ ...summary('ann', 200), lastAt: 400, text: 'written again' }] });
    expect(
      (await room.searchConversations({ fromMs: 0, toMs: 1000, limit: 10, text: 'again' })).items.map((c) => [
        c.userId,
        c.lastAt,
      ]),
    ).toEqual([['ann', 400]]);
    expect(await room.eraseUser('ann')).toBe(2);
    expect((await room.searchConversations({ fromMs: 0, toMs: 1000, limit: 10 })).items.map((c) => c.userId)).toEqual([
      'bob',
    ]);
    await store.close();
  });

  it('when a file from schema version 6 is opened, then userData lists its users by last message or creation, and old transcript entries read without dialog or step', async () => {
    const file = join(dir, 'v6.db');
    const raw = openDatabase(file);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 6)) raw.exec(migration.sql);
    raw.pragma('user_version = 6');
    const insert = raw.prepare(
      `INSERT INTO users (user_id, channel_id, position, variables, user_data, last_message_at, created_at, updated_at, version, last_seq)
       VALUES (?, 'webchat', NULL, '{}', '{}', ?, ?, 900, 1, 0)`,
    );
    insert.run('wrote', 300, 100);
    insert.run('silent', null, 200);
    raw
      .prepare(
        `INSERT INTO transcript (user_id, seq, sender, client_id, at, message) VALUES ('wrote', 1, 'bot', NULL, 5, '{"type":"text","text":"hi"}')`,
      )
      .run();
    raw.close();
    const store = openSqliteStore({ file });
    const rows: [string, number][] = [];
    for await (const row of store.exportKnownUsers({})) rows.push([row.userId, row.timestamp]);
    expect(rows).toStrictEqual([
      ['silent', 200],
      ['wrote', 300],
    ]);
    const [entry] = await store.readTranscript('wrote', 0, 1);
    expect(entry).toStrictEqual({
      userId: 'wrote',
      seq: 1,
      from: 'bot',
      clientId: null,
      at: 5,
      message: { type: 'text', text: 'hi' },
    });
    await store.close();
  });

  it('when writes are committed, then the database file alone holds them soon after, as a file backup would copy it', async () => {
    const file = join(dir, 'live.db');
    const store = openSqliteStore({ file });
    for (let i = 0; i < 200; i++)
      await store.ensureUser({ userId: `user-${i}`, channelId: 'c', userData: { note: 'x'.repeat(500) }, now: i });
    // A copy of the main file without its -wal, as a naive backup takes it.
    const copy = join(dir, 'copy.db');
    const usersInCopy = async () => {
      await copyFile(file, copy);
      const raw = openDatabase(copy, { readonly: true });
      try {
        return (raw.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
      } catch {
        return -1; // copied mid-checkpoint: the next look sees it whole
      } finally {
        raw.close();
      }
    };
    // Far below SQLite's own checkpoint threshold: only the background checkpoint gets them there.
    await eventually('the writes to reach the database file', async () => (await usersInCopy()) === 200);
    await store.close();
  });

  it('when the file was written by a newer schema, then opening fails and says so', () => {
    const file = join(dir, 'newer.db');
    const raw = openDatabase(file);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openSqliteStore({ file })).toThrow(/newer than this server knows/);
  });

  it('when the store is in memory, then it works too', async () => {
    const store = openSqliteStore({ file: ':memory:' });
    await store.ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    expect(await store.appendTranscript('u1', [{ from: 'bot', at: 1, message: {} }])).toHaveLength(1);
    await store.close();
  });
});
