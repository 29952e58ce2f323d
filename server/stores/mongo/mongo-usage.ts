import type { UsageCounters, UsageKey } from '../../ports/usage-counters.ts';
import { COLLECTIONS } from './mongo-common.ts';
import type { MongoStore } from './mongo-store.ts';

interface UsageDoc {
  _id: string;
  userId: string;
  counter: string;
  day: string;
  amount: number;
}

/*
 * One document per user, counter and day. $inc is not atomic on FerretDB 1.x (see
 * key-lock.ts), so an addition reads and writes under the counter's lock.
 * MongoDB features used: findOne, replaceOne with upsert, deleteMany. No transactions.
 */
export function mongoUsageCounters(store: Pick<MongoStore, 'db' | 'locks'>): UsageCounters {
  const { db, locks } = store;
  const counters = db.collection<UsageDoc>(COLLECTIONS.usageCounters);
  const idOf = (key: UsageKey) => JSON.stringify([key.userId, key.counter, key.day]);
  return {
    async addUsage(key, amount) {
      return locks.withLock(`usage:${JSON.stringify([key.userId, key.counter])}`, async () => {
        await counters.deleteMany({ userId: key.userId, counter: key.counter, day: { $ne: key.day } });
        const current = await counters.findOne({ _id: idOf(key) });
        const total = (current?.amount ?? 0) + Math.max(0, Math.round(amount));
        await counters.replaceOne(
          { _id: idOf(key) },
          { userId: key.userId, counter: key.counter, day: key.day, amount: total },
          { upsert: true },
        );
        return total;
      });
    },
    async readUsage(key) {
      return (await counters.findOne({ _id: idOf(key) }))?.amount ?? 0;
    },
    async eraseUsage(userId) {
      return (await counters.deleteMany({ userId })).deletedCount;
    },
  };
}
