import { MongoClient, MongoServerError, type Collection, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureIndexes } from './indexes.ts';
import { keyLocks } from './key-lock.ts';
import { mongoTranscript } from './mongo-transcript.ts';
import { mongoTurns } from './mongo-turns.ts';
import { mongoUsers } from './mongo-users.ts';
import { userLockKey } from './user-doc.ts';
import { mongoOutboxes } from './turn-outbox.ts';
import { SettledTurns } from './unsent-entries.ts';
import { isTransient, retryingDb, retryTransient } from './transient.ts';
import { newDeadline, runWithDeadline } from '../../ports/deadline.ts';

const busy = () => new MongoServerError({ errmsg: 'database is locked (5) (SQLITE_BUSY)', code: 1 });

describe('which store errors are worth another try', () => {
  it('when MongoDB labels or codes an error as transient, or FerretDB finds its file busy, then it is retried; other errors are not', () => {
    const labelled = new MongoServerError({ errmsg: 'not primary', code: 10107 });
    const retryable = new MongoServerError({ errmsg: 'x', code: 2 });
    retryable.addErrorLabel('RetryableWriteError');
    expect(isTransient(labelled)).toBe(true);
    expect(isTransient(retryable)).toBe(true);
    expect(isTransient(new MongoServerError({ errmsg: 'WriteConflict', code: 112 }))).toBe(true);
    expect(isTransient(busy())).toBe(true);
    expect(isTransient(new MongoServerError({ errmsg: 'E11000 duplicate key', code: 11000 }))).toBe(false);
    expect(isTransient(new Error('user u does not exist'))).toBe(false);
  });
});

describe('retries under a deadline', () => {
  const policy = { attempts: 8, firstPauseMs: 40, maxPauseMs: 1000 };
  const failing = (starts: number[]) => async () => {
    starts.push(performance.now());
    throw busy();
  };

  it('when a person waits on the work and its deadline is near, then a transient failure is not tried again past it', async () => {
    const starts: number[] = [];
    const deadline = newDeadline(50);
    await expect(runWithDeadline(deadline, () => retryTransient(failing(starts), policy))).rejects.toThrow(
      /database is locked/,
    );
    // The second pause alone (40 to 120 ms) would end past the deadline: one or two tries, each started before it.
    expect(starts.length).toBeLessThanOrEqual(2);
    expect(starts.every((at) => at < deadline.at)).toBe(true);
  });

  it('when nobody waits on the work (a job, a timer), then every try of the policy is made', async () => {
    const starts: number[] = [];
    await expect(retryTransient(failing(starts), { attempts: 4, firstPauseMs: 2, maxPauseMs: 4 })).rejects.toThrow(
      /database is locked/,
    );
    expect(starts).toHaveLength(4);
  });

  it('when what the person waits on is in hand (the message is stored), then the rest of the work retries as usual', async () => {
    const starts: number[] = [];
    const deadline = newDeadline(1);
    deadline.met = true;
    await expect(
      runWithDeadline(deadline, () => retryTransient(failing(starts), { attempts: 4, firstPauseMs: 2, maxPauseMs: 4 })),
    ).rejects.toThrow(/database is locked/);
    expect(starts).toHaveLength(4);
  });
});

const mongoUrl = inject('mongoUrl');

describe.skipIf(mongoUrl === '')('the Mongo store on a server that is often busy', () => {
  let client: MongoClient;
  let db: Db;
  const dbName = `transient_${process.pid}_${Date.now().toString(36)}`;
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 5000 });
    db = client.db(dbName);
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('when a third of all operations fail as busy, then concurrent turns still all commit, with gapless seqs and no message twice', async () => {
    let injected = 0;
    // Refuses before reaching the server, as SQLITE_BUSY does: nothing was written.
    const flaky = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'collection') return Reflect.get(target, property, receiver) as unknown;
        return (name: string) =>
          new Proxy(target.collection(name), {
            get(collection: Collection, method, inner) {
              const value = Reflect.get(collection, method, inner) as unknown;
              if (
                typeof value !== 'function' ||
                !['insertOne', 'insertMany', 'updateOne', 'deleteOne', 'findOne'].includes(String(method))
              )
                return value;
              return (...args: unknown[]) => {
                if (Math.random() < 0.33) {
                  injected += 1;
                  return Promise.reject(busy());
                }
                return (value as (...a: unknown[]) => Promise<unknown>).apply(collection, args);
              };
            },
          });
      },
    });
    const retrying = retryingDb(flaky, { attempts: 12, firstPauseMs: 2, maxPauseMs: 40 });
    const locks = keyLocks(retrying);
    const outboxes = mongoOutboxes(retrying, locks, userLockKey);
    const settled = new SettledTurns();
    const store = {
      ...mongoUsers(retrying, locks),
      ...mongoTranscript(retrying, { locks, outboxes, settled }),
      ...mongoTurns(retrying, { locks, outboxes, settled }),
    };

    const USERS = 6;
    const TURNS = 6;
    await Promise.all(
      Array.from({ length: USERS }, async (_, u) => {
        const userId = `busy-${u}`;
        await store.ensureUser({ userId, channelId: 'webchat', now: 1 });
        for (let t = 0; t < TURNS; t += 1) {
          for (;;) {
            const user = await store.getUser(userId);
            const result = await store.commitTurn({
              userId,
              expectedVersion: user!.version,
              patch: { variables: { turn: t } },
              now: t,
              userEntry: { from: 'user', clientId: `c${t}`, at: t, message: { text: `m${t}` } },
              botEntries: [{ from: 'bot', at: t, message: { text: `a${t}` } }],
            });
            if (result.status !== 'conflict') break;
          }
        }
      }),
    );

    expect(injected).toBeGreaterThan(20);
    for (let u = 0; u < USERS; u += 1) {
      const entries = await store.readTranscript(`busy-${u}`, 0, 100);
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: TURNS * 2 }, (_, i) => i + 1));
      expect(entries.map((e) => (e.message as { text: string }).text)).toEqual(
        Array.from({ length: TURNS }, (_, t) => [`m${t}`, `a${t}`]).flat(),
      );
    }
  });
});
