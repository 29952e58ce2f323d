import { ObjectId, type Db } from 'mongodb';
import { COLLECTIONS, isDuplicateKey } from './mongo-common.ts';

/*
 * Why locks at all: FerretDB 1.x (either backend) runs every update and
 * findAndModify as "query, change in Go, write the whole document back by
 * _id", with nothing between query and write. A filter such as
 * {_id, version: 3} therefore does NOT make an update conditional, $inc is
 * not atomic, and concurrent updates of one document lose writes. What it
 * does do atomically: an insert against a unique index, and a delete by _id
 * (whose count comes from the SQL statement). A lock is exactly that: the
 * holder inserted {key} under a unique index; release deletes its own lock
 * by its own _id. Every read-check-write of a user, job or dataset document
 * runs under the document's lock, so the adapter is correct on MongoDB and
 * on FerretDB alike.
 */

interface LockDoc {
  _id: ObjectId;
  key: string;
  /** Wall-clock expiry: a crashed holder blocks the key at most this long. */
  until: number;
}

/**
 * A crashed holder blocks the key at most this long: short, because a killed
 * process's locks would otherwise hold its users' turns back after a restart.
 * A live holder renews its lock while it works (RENEW_EVERY_MS), so a slow
 * operation does not lose its lock halfway.
 */
const LOCK_TTL_MS = 4_000;
const RENEW_EVERY_MS = 1_000;
/** Longer than the TTL, so a crashed holder's lock is taken over rather than failing the waiter. */
const WAIT_LIMIT_MS = 15_000;

export interface KeyLocks {
  /** Runs `action` holding the key's lock, waiting for it when held. */
  withLock<T>(key: string, action: () => Promise<T>): Promise<T>;
}

export function keyLocks(db: Db): KeyLocks {
  const locks = db.collection<LockDoc>(COLLECTIONS.locks);

  /** The lock's id when acquired, else null. */
  const tryAcquire = async (key: string): Promise<ObjectId | null> => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const lock: LockDoc = { _id: new ObjectId(), key, until: Date.now() + LOCK_TTL_MS };
      try {
        await locks.insertOne(lock);
        return lock._id;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const holder = await locks.findOne({ key });
      if (holder === null) continue;
      if (holder.until > Date.now()) return null;
      // Expired: remove that very lock (by its own _id, never by key) and try once more.
      await locks.deleteOne({ _id: holder._id });
    }
    return null;
  };

  const release = async (id: ObjectId) => {
    await locks.deleteOne({ _id: id });
  };

  return {
    async withLock(key, action) {
      const deadline = Date.now() + WAIT_LIMIT_MS;
      let pause = 2;
      for (;;) {
        const id = await tryAcquire(key);
        if (id !== null) {
          const renewal = setInterval(() => {
            locks.updateOne({ _id: id }, { $set: { until: Date.now() + LOCK_TTL_MS } }).catch(() => undefined);
          }, RENEW_EVERY_MS);
          try {
            return await action();
          } finally {
            clearInterval(renewal);
            // A release that fails costs a TTL of waiting for the next holder, not a wrong result.
            await release(id).catch(() => undefined);
          }
        }
        if (Date.now() > deadline) throw new Error(`lock ${key} still held after ${WAIT_LIMIT_MS} ms`);
        await new Promise((done) => setTimeout(done, pause + Math.random() * pause));
        pause = Math.min(pause * 2, 50);
      }
    },
  };
}

/**
 * Locks inside this process only: for a store only one process writes (one node,
 * no REDIS_URL). They order this process's read-check-writes of a document exactly
 * as the store's locks would, without the two writes (insert, delete) each lock
 * costs there: a turn on one node then makes no lock round trip at all.
 */
export function processLocks(): KeyLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async withLock(key, action) {
      const before = tails.get(key);
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      tails.set(key, mine);
      try {
        if (before) await before;
        return await action();
      } finally {
        release();
        if (tails.get(key) === mine) tails.delete(key);
      }
    },
  };
}
