import { createServer } from 'node:net';
import { MongoClient } from 'mongodb';
import { describe, expect, inject, it } from 'vitest';
import { describeUrl, openMongoStore } from './mongo-store.ts';
import { transcriptDoc } from './transcript-doc.ts';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

describe('openMongoStore', () => {
  it('when no server answers, then it rejects naming the host and never the password', async () => {
    const port = await closedPort();
    const url = `mongodb://bot:s3cret-pw@127.0.0.1:${port}/chat`;
    const error = await openMongoStore({ url, serverSelectionTimeoutMs: 300 }).then(
      () => null,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toContain(`cannot connect to MongoDB at 127.0.0.1:${port}`);
    expect(error?.message).not.toContain('s3cret-pw');
  });

  it('when a URL has credentials, hosts and a database, then describeUrl keeps hosts and database only', () => {
    expect(describeUrl('mongodb://u:p@a:1,b:2/app?replicaSet=rs')).toStrictEqual({ hosts: 'a:1,b:2', dbName: 'app' });
    expect(describeUrl('mongodb+srv://cluster.example.net')).toStrictEqual({
      hosts: 'cluster.example.net',
      dbName: undefined,
    });
  });
});

describe.skipIf(!inject('mongoUrl'))('openMongoStore on an existing database', () => {
  it('when the server restarts on the same database, then the store opens again and the data is still there', async () => {
    const url = `${inject('mongoUrl').replace(/\/$/, '')}/reopen_${process.pid}_${Date.now().toString(36)}`;
    const first = await openMongoStore({ url });
    await first.ensureUser({ userId: 'u1', channelId: 'webchat', userData: { name: 'Ada' }, now: 1000 });
    await first.close();
    const second = await openMongoStore({ url });
    try {
      expect((await second.getUser('u1'))?.userData).toEqual({ name: 'Ada' });
    } finally {
      await second.close();
    }
  });

  it('when a database from before listedAt is opened, then its users are listed by last message or creation and the old activity index is gone', async () => {
    const url = `${inject('mongoUrl').replace(/\/$/, '')}/listed_${process.pid}_${Date.now().toString(36)}`;
    const first = await openMongoStore({ url });
    await first.ensureUser({ userId: 'wrote', channelId: 'webchat', now: 100 });
    await first.ensureUser({ userId: 'silent', channelId: 'webchat', now: 200 });
    await first.close();
    const client = await MongoClient.connect(url);
    try {
      // As an older version left them: no listedAt, and the index it exported by.
      const users = client.db().collection('users');
      await users.updateMany({}, { $unset: { listedAt: '' } });
      await users.updateOne({ _id: 'wrote' as never }, { $set: { lastMessageAt: 300, updatedAt: 900 } });
      await users.dropIndex('by_listed');
      await users.createIndex({ updatedAt: 1, order: 1 }, { name: 'by_activity' });
      const second = await openMongoStore({ url });
      try {
        const rows: [string, number][] = [];
        for await (const row of second.exportKnownUsers({})) rows.push([row.userId, row.timestamp]);
        expect(rows).toStrictEqual([
          ['silent', 200],
          ['wrote', 300],
        ]);
        const names = (await users.listIndexes().toArray()).map((index) => String(index.name));
        expect(names).toContain('by_listed');
        expect(names).not.toContain('by_activity');
      } finally {
        await second.close();
      }
    } finally {
      await client.db().dropDatabase();
      await client.close();
    }
  });

  it('when the process died after a turn stored its state but before its answers, then the answers are stored by the next read or turn, with their seqs', async () => {
    const url = `${inject('mongoUrl').replace(/\/$/, '')}/unsent_${process.pid}_${Date.now().toString(36)}`;
    let store = await openMongoStore({ url });
    const client = await MongoClient.connect(url);
    // The process that died is gone with what it knew: the next one opens the store afresh.
    const restart = async () => {
      await store.close();
      store = await openMongoStore({ url });
    };
    try {
      const bot = (text: string) => ({ from: 'bot' as const, at: 5, message: { type: 'text', text } });
      const user = await store.ensureUser({ userId: 'u1', channelId: 'webchat', now: 1 });
      await store.commitTurn({
        userId: 'u1',
        expectedVersion: user.version,
        patch: { lastTrigger: 't1' },
        now: 5,
        botEntries: [bot('one'), bot('two')],
      });
      // What a crash between the two writes leaves: the state (with its mark), no answers.
      await client.db().collection('transcript').deleteMany({ userId: 'u1' });
      await restart();
      expect((await store.readTranscript('u1', 0, 10)).map((e) => [e.seq, e.message.text])).toStrictEqual([
        [1, 'one'],
        [2, 'two'],
      ]);
      await client.db().collection('transcript').deleteMany({ userId: 'u1', seq: 2 });
      await restart();
      await store.commitTurn({
        userId: 'u1',
        expectedVersion: user.version + 1,
        patch: {},
        now: 6,
        botEntries: [bot('three')],
      });
      await client.db().collection('transcript').deleteMany({ userId: 'u1', seq: 3 });
      await restart();
      await store.appendTranscript('u1', [bot('four')]);
      expect((await store.readTranscript('u1', 0, 10)).map((e) => [e.seq, e.message.text])).toStrictEqual([
        [1, 'one'],
        [2, 'two'],
        [3, 'three'],
        [4, 'four'],
      ]);
      expect(await store.getUser('u1')).toMatchObject({ lastSeq: 4, lastTrigger: 't1' });
    } finally {
      await client.db().dropDatabase();
      await client.close();
      await store.close();
    }
  });
});

describe.skipIf(!inject('mongoUrl'))('the turn outbox after a crash', () => {
  it('when the process died after a turn committed but before its outbox was moved, then the sweep stores its jobs, cancels and log rows, once each', async () => {
    const url = `${inject('mongoUrl').replace(/\/$/, '')}/outbox_${process.pid}_${Date.now().toString(36)}`;
    let store = await openMongoStore({ url });
    const client = await MongoClient.connect(url);
    try {
      const user = await store.ensureUser({ userId: 'u1', channelId: 'webchat', now: 1 });
      await store.scheduleJob({ id: 'timer:u1:old', kind: 'timer', payload: {}, runAt: 50 });
      const committed = await store.commitTurn({
        userId: 'u1',
        expectedVersion: user.version,
        patch: {},
        now: 5,
        botEntries: [{ from: 'bot', at: 5, message: { type: 'text', text: 'wait' } }],
        cancelJobs: ['timer:u1:old'],
        jobs: [{ id: 'timer:u1:w', kind: 'timer', payload: { userId: 'u1', timerId: 'w' }, runAt: 60 }],
        logs: [{ kind: 'nlpLog', entry: { userId: 'u1', timestamp: 5, data: { text: 'hi' } } }],
      });
      expect(committed.status).toBe('committed');
      // What a SIGKILL right after the commit's write leaves: the outbox in the user document, nothing moved.
      const doc = await client
        .db()
        .collection('users')
        .findOne({ _id: 'u1' as never });
      const outbox = {
        cancels: ['timer:u1:old'],
        jobs: [
          {
            _id: 'timer:u1:w',
            kind: 'timer',
            payload: '{"userId":"u1","timerId":"w"}',
            runAt: 60,
            status: 'pending',
            attempts: 0,
            maxAttempts: 1,
            group: null,
            leaseOwner: null,
            leaseUntil: null,
            lastError: null,
          },
        ],
        logs: [] as unknown[],
      };
      const log = await client.db().collection('logs').findOne({ kind: 'nlpLog' });
      outbox.logs.push(log);
      // As a user document of a version before `outboxHeld` holds it: the upgrade at the next start marks it for the sweep.
      await client
        .db()
        .collection('users')
        .updateOne({ _id: 'u1' as never }, { $set: { outbox, outboxAt: 5 }, $unset: { outboxHeld: '' } });
      await client
        .db()
        .collection('jobs')
        .deleteOne({ _id: 'timer:u1:w' as never });
      await client
        .db()
        .collection('jobs')
        .updateOne({ _id: 'timer:u1:old' as never }, { $set: { status: 'pending' } });
      expect(doc?.version).toBe(user.version + 1);
      await store.close();
      store = await openMongoStore({ url });
      // Nobody touches the user again: the job runner's next claim sweeps the outbox.
      await store.claimJobs({ workerId: 'w', now: 10_000, leaseMs: 1000, limit: 10, kinds: ['none'] });
      expect(await store.getJob('timer:u1:w')).toMatchObject({ status: 'pending', runAt: 60 });
      expect(await store.getJob('timer:u1:old')).toMatchObject({ status: 'cancelled' });
      const rows = [];
      for await (const row of store.readLogs('nlpLog', {})) rows.push(row.data);
      expect(rows).toStrictEqual([{ text: 'hi' }]);
      expect(
        await client
          .db()
          .collection('users')
          .findOne({ _id: 'u1' as never }),
      ).toMatchObject({ outbox: null, outboxAt: null, outboxHeld: false });
    } finally {
      await client.db().dropDatabase();
      await client.close();
      await store.close();
    }
  });
});

describe.skipIf(!inject('mongoUrl'))('what a crash left, after a replay', () => {
  it('when a reconnect read the user and what they missed in one read and another process then stored an append only in the user document, then the turn from that read still stores that entry, before its own', async () => {
    const url = `${inject('mongoUrl').replace(/\/$/, '')}/returning_${process.pid}_${Date.now().toString(36)}`;
    const store = await openMongoStore({ url });
    const client = await MongoClient.connect(url);
    try {
      await store.ensureUser({ userId: 'u1', channelId: 'webchat', now: 1 });
      await store.appendTranscript('u1', [{ from: 'bot', at: 2, message: { type: 'text', text: 'Say something.' } }]);
      expect(await store.readReturning('nobody', 0, 100)).toStrictEqual({ user: null, missed: [] });
      const { user, missed } = await store.readReturning('u1', 0, 100);
      expect(missed.map((e) => e.seq)).toStrictEqual([1]);
      expect(user).toStrictEqual(await store.getUser('u1'));
      // The turn runs from the reconnect's read (kept in the store's cache); meanwhile another process's append was cut short.
      const unsent = transcriptDoc('u1', 2, { from: 'bot', at: 3, message: { type: 'text', text: 'Are you there?' } });
      await client
        .db()
        .collection('users')
        .updateOne({ _id: 'u1' as never }, { $set: { lastSeq: 2, unsent: [unsent] } });
      const committed = await store.commitTurn({
        userId: 'u1',
        expectedVersion: user!.version,
        patch: {},
        now: 4,
        userEntry: { from: 'user', at: 4, clientId: 'c1', message: { type: 'text', text: 'yes' } },
        botEntries: [{ from: 'bot', at: 4, message: { type: 'text', text: 'You said: yes' } }],
      });
      expect(committed.status).toBe('committed');
      const texts = (await store.readTranscript('u1', 0, 100)).map(
        (e) => `${e.seq} ${(e.message as { text: string }).text}`,
      );
      expect(texts).toStrictEqual(['1 Say something.', '2 Are you there?', '3 yes', '4 You said: yes']);
    } finally {
      await client.db().dropDatabase();
      await client.close();
      await store.close();
    }
  });

  it('when a reconnect replayed up to lastSeq and another process then stored an append only in the user document, then the next turn still stores that entry, before its own', async () => {
    const url = `${inject('mongoUrl').replace(/\/$/, '')}/replayed_${process.pid}_${Date.now().toString(36)}`;
    const store = await openMongoStore({ url });
    const client = await MongoClient.connect(url);
    try {
      const user = await store.ensureUser({ userId: 'u1', channelId: 'webchat', now: 1 });
      await store.appendTranscript('u1', [{ from: 'bot', at: 2, message: { type: 'text', text: 'Say something.' } }]);
      // A widget reconnecting after seq 0: the replay reaches lastSeq, so this process may skip the crash check next turn.
      expect((await store.readTranscript('u1', 0, 100)).map((e) => e.seq)).toStrictEqual([1]);
      // Another process's append, cut short by a kill after the user document's write (the commit point), before the insert.
      const users = client.db().collection('users');
      const unsent = transcriptDoc('u1', 2, { from: 'bot', at: 3, message: { type: 'text', text: 'Are you there?' } });
      await users.updateOne({ _id: 'u1' as never }, { $set: { lastSeq: 2, unsent: [unsent] } });
      const committed = await store.commitTurn({
        userId: 'u1',
        expectedVersion: (await store.getUser('u1'))?.version ?? user.version,
        patch: {},
        now: 4,
        userEntry: { from: 'user', at: 4, clientId: 'c1', message: { type: 'text', text: 'yes' } },
        botEntries: [{ from: 'bot', at: 4, message: { type: 'text', text: 'You said: yes' } }],
      });
      expect(committed.status).toBe('committed');
      const texts = (await store.readTranscript('u1', 0, 100)).map(
        (e) => `${e.seq} ${(e.message as { text: string }).text}`,
      );
      expect(texts).toStrictEqual(['1 Say something.', '2 Are you there?', '3 yes', '4 You said: yes']);
    } finally {
      await client.db().dropDatabase();
      await client.close();
      await store.close();
    }
  });
});
