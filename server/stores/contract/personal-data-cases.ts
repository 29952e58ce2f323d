import { expect, it } from 'vitest';
import { LOG_KINDS, type Store } from '../../ports/store.ts';
import { InvalidCursorError } from '../common/range-cursor.ts';
import { collect } from './harness.ts';

const text = (t: string) => ({ type: 'text', text: t });

/** A user with a turn, a log row of every kind, a timer, a trigger, a callback and an integration job. */
async function seed(store: Store, userId: string, at: number): Promise<void> {
  const user = await store.ensureUser({ userId, channelId: 'webchat', userData: { name: userId }, now: at });
  await store.commitTurn({
    userId,
    expectedVersion: user.version,
    patch: { lastMessageAt: at, userData: { name: userId } },
    now: at,
    userEntry: { from: 'user', clientId: `${userId}-c1`, at, message: text('hi') },
    snapshots: [{ userId, timestamp: at, data: { name: userId } }],
    botEntries: [{ from: 'bot', at, message: text('hello'), dialogId: 'greeting', stepId: 'hello' }],
  });
  for (const kind of LOG_KINDS) await store.appendLog(kind, { userId, timestamp: at, data: { kind } });
  await store.scheduleJob({
    id: `timer:${userId}:t1`,
    kind: 'timer',
    payload: { userId, timerId: 't1' },
    runAt: at + 1000,
  });
  await store.scheduleJob({
    id: `trigger:${userId}`,
    kind: 'trigger',
    payload: { userId, dialogId: 'd' },
    runAt: at,
    group: `trigger:${userId}`,
  });
  await store.scheduleJob({
    id: `callback:${userId}`,
    kind: 'callback',
    payload: { channel: 'c', user: userId },
    runAt: at,
  });
  await store.scheduleJob({
    id: `integration:${userId}`,
    kind: 'integration',
    payload: { step: {}, context: { userId, variables: {} } },
    runAt: at,
  });
}

export function personalDataCases(store: () => Store): void {
  it('when a user is erased, then their row, transcript, logs of every kind and jobs are gone, the count of each is reported, and other users are untouched', async () => {
    await seed(store(), 'gone', 1000);
    await seed(store(), 'kept', 1000);
    // A user whose id is a prefix of the erased one's, to show matching is exact.
    await seed(store(), 'gon', 1000);
    const report = await store().eraseUser('gone');
    expect(report).toStrictEqual({
      user: 1,
      transcript: 2,
      logs: Object.fromEntries(LOG_KINDS.map((kind) => [kind, kind === 'userDataSnapshot' ? 2 : 1])),
      jobs: 4,
    });
    expect(await store().getUser('gone')).toBeNull();
    expect(await store().readTranscript('gone', 0, 10)).toStrictEqual([]);
    for (const kind of LOG_KINDS) {
      expect((await collect(store().readLogs(kind, {}))).map((e) => e.userId).sort()).toStrictEqual(
        kind === 'userDataSnapshot' ? ['gon', 'gon', 'kept', 'kept'] : ['gon', 'kept'],
      );
    }
    expect(await store().getJob('timer:gone:t1')).toBeNull();
    expect(await store().getJob('integration:gone')).toBeNull();
    expect(await store().getJob('timer:kept:t1')).not.toBeNull();
    expect(await store().getJob('callback:gon')).not.toBeNull();
    expect((await store().readTranscript('kept', 0, 10)).length).toBe(2);
    expect((await collect(store().exportKnownUsers({}))).map((u) => u.userId).sort()).toStrictEqual(['gon', 'kept']);
  });

  it('when a user is erased twice or never existed, then the later calls find nothing and report zeros', async () => {
    await seed(store(), 'u1', 1000);
    await store().eraseUser('u1');
    const zero = { user: 0, transcript: 0, logs: Object.fromEntries(LOG_KINDS.map((kind) => [kind, 0])), jobs: 0 };
    expect(await store().eraseUser('u1')).toStrictEqual(zero);
    expect(await store().eraseUser('never')).toStrictEqual(zero);
  });

  it('when records are purged, then only those strictly older than their cut-off go, and kinds without a cut-off stay', async () => {
    await seed(store(), 'old', 1000);
    await seed(store(), 'new', 5000);
    const report = await store().purgeOlderThan({
      transcriptBefore: 5000,
      logsBefore: { nlpLog: 5000, urlTracker: 1000 },
    });
    expect(report.transcript).toBe(2);
    expect(report.logs).toMatchObject({ nlpLog: 1, urlTracker: 0, integrationLog: 0 });
    expect(await store().readTranscript('old', 0, 10)).toStrictEqual([]);
    expect((await store().readTranscript('new', 0, 10)).map((e) => e.seq)).toStrictEqual([1, 2]);
    expect((await collect(store().readLogs('nlpLog', {}))).map((e) => e.userId)).toStrictEqual(['new']);
    expect((await collect(store().readLogs('urlTracker', {}))).map((e) => e.userId)).toStrictEqual(['old', 'new']);
    expect((await collect(store().readLogs('integrationLog', {}))).length).toBe(2);
    // The purged user's next message continues the numbering; nothing purged comes back.
    const user = await store().getUser('old');
    await store().commitTurn({
      userId: 'old',
      expectedVersion: user!.version,
      patch: {},
      now: 6000,
      botEntries: [{ from: 'bot', at: 6000, message: text('again') }],
    });
    expect((await store().readTranscript('old', 0, 10)).map((e) => e.seq)).toStrictEqual([3]);
  });

  it('when every known user is exported, then users who never wrote are included at their creation, and writers at their last message whatever the bot did since', async () => {
    await store().ensureUser({ userId: 'silent', channelId: 'webchat', now: 300 });
    await seed(store(), 'writer', 100);
    const user = await store().getUser('writer');
    // Bot activity after the message: data saved, then a turn of its own (a trigger, a timer).
    const saved = await store().updateUser('writer', user!.version, { userData: { name: 'W' } }, 500);
    await store().commitTurn({
      userId: 'writer',
      expectedVersion: saved!.version,
      patch: { position: null },
      now: 600,
      botEntries: [{ from: 'bot', at: 600, message: text('ding') }],
    });
    const silent = await store().getUser('silent');
    await store().commitTurn({
      userId: 'silent',
      expectedVersion: silent!.version,
      patch: {},
      now: 700,
      botEntries: [{ from: 'bot', at: 700, message: text('hello') }],
    });
    const rows = await collect(store().exportKnownUsers({}));
    expect(rows.map((r) => [r.userId, r.timestamp])).toStrictEqual([
      ['writer', 100],
      ['silent', 300],
    ]);
    expect(rows[0]?.userData).toStrictEqual({ name: 'W' });
    // Where the store hands its stored text too, it is exactly the data as JSON.stringify writes it.
    for (const row of rows)
      if (row.userDataJson !== undefined) expect(row.userDataJson).toBe(JSON.stringify(row.userData));
    expect((await collect(store().exportKnownUsers({ fromMs: 300, toMs: 800 }))).map((r) => r.userId)).toStrictEqual([
      'silent',
    ]);
    expect((await collect(store().exportKnownUsers({ fromMs: 101, toMs: 300 }))).map((r) => r.userId)).toStrictEqual(
      [],
    );
    const batches = await collect(store().exportKnownUsers({ batchSize: 1 }).batches());
    expect(batches).toStrictEqual(rows.map((row) => [row]));
    const rest = await collect(store().exportKnownUsers({ after: rows[0]!.cursor }));
    expect(rest.map((r) => r.userId)).toStrictEqual(['silent']);
    // Writing again moves the writer to their new message.
    const again = await store().getUser('writer');
    await store().commitTurn({
      userId: 'writer',
      expectedVersion: again!.version,
      patch: { lastMessageAt: 900 },
      now: 900,
      userEntry: { from: 'user', clientId: 'writer-c2', at: 900, message: text('back') },
      botEntries: [],
    });
    expect((await collect(store().exportKnownUsers({}))).map((r) => [r.userId, r.timestamp])).toStrictEqual([
      ['silent', 300],
      ['writer', 900],
    ]);
  });

  it('when the transcript is exported, then every entry of every user in the range comes by time, and paging by cursor neither repeats nor skips', async () => {
    await seed(store(), 'b', 200);
    await seed(store(), 'a', 200);
    await seed(store(), 'c', 100);
    await seed(store(), 'd', 300);
    const all = await collect(store().exportTranscript({ batchSize: 3 }));
    expect(all.map((r) => r.at)).toStrictEqual([100, 100, 200, 200, 200, 200, 300, 300]);
    expect(all[0]).toMatchObject({
      userId: 'c',
      seq: 1,
      from: 'user',
      message: text('hi'),
      dialogId: null,
      stepId: null,
    });
    expect(all[1]).toMatchObject({
      userId: 'c',
      seq: 2,
      from: 'bot',
      message: text('hello'),
      dialogId: 'greeting',
      stepId: 'hello',
    });
    const ranged = await collect(store().exportTranscript({ fromMs: 200, toMs: 300 }));
    expect(ranged.map((r) => r.userId).sort()).toStrictEqual(['a', 'a', 'b', 'b']);
    const paged = [];
    let after: string | undefined;
    for (;;) {
      const page = (await collect(store().exportTranscript({ after, batchSize: 2 }))).slice(0, 3);
      if (page.length === 0) break;
      paged.push(...page);
      after = page.at(-1)!.cursor;
    }
    expect(paged.map((r) => `${r.userId}${r.seq}`)).toStrictEqual(all.map((r) => `${r.userId}${r.seq}`));
    await expect(collect(store().exportTranscript({ after: 'nonsense' }))).rejects.toBeInstanceOf(InvalidCursorError);
    const batches = await collect(store().exportTranscript({ batchSize: 3 }).batches());
    expect(batches.map((batch) => batch.length)).toStrictEqual([3, 3, 2]);
    expect(batches.flat()).toStrictEqual(all);
  });
}

/** The job queue's depth and age, as /metrics reads it. */
export function jobStatsCases(store: () => Store): void {
  it('when jobs wait, then dueJobs counts the due pending ones by kind with the oldest runAt, and leaves out future, running and finished ones', async () => {
    const s = store();
    await s.scheduleJob({ id: 'a1', kind: 'timer', payload: {}, runAt: 100 });
    await s.scheduleJob({ id: 'a2', kind: 'timer', payload: {}, runAt: 50 });
    await s.scheduleJob({ id: 'b1', kind: 'trigger', payload: {}, runAt: 150 });
    await s.scheduleJob({ id: 'future', kind: 'trigger', payload: {}, runAt: 10_000 });
    await s.scheduleJob({ id: 'done', kind: 'callback', payload: {}, runAt: 10 });
    const [claimed] = await s.claimJobs({ workerId: 'w', now: 10, leaseMs: 1000, limit: 1 });
    await s.completeJob(claimed!.id, 'w');
    expect(await s.dueJobs(200)).toStrictEqual([
      { kind: 'timer', count: 2, oldestRunAt: 50 },
      { kind: 'trigger', count: 1, oldestRunAt: 150 },
    ]);
    expect(await s.dueJobs(0)).toStrictEqual([]);
  });
}
