import type { UsageCounters } from '../../ports/usage-counters.ts';
import type { SqliteStore } from './sqlite-store.ts';

/** The usage counters of a store opened by openSqliteStore, in its own table (migration 10). */
export function sqliteUsageCounters(store: Pick<SqliteStore, 'db'>): UsageCounters {
  const { db } = store;
  const add = db.prepare<[{ counter: string; userId: string; day: string; amount: number }], { amount: number }>(
    `INSERT INTO usage_counters (counter, user_id, day, amount) VALUES (@counter, @userId, @day, @amount)
     ON CONFLICT (user_id, counter, day) DO UPDATE SET amount = amount + excluded.amount
     RETURNING amount`,
  );
  const dropOtherDays = db.prepare<[{ counter: string; userId: string; day: string }]>(
    'DELETE FROM usage_counters WHERE user_id = @userId AND counter = @counter AND day <> @day',
  );
  const read = db.prepare<[{ counter: string; userId: string; day: string }], { amount: number }>(
    'SELECT amount FROM usage_counters WHERE user_id = @userId AND counter = @counter AND day = @day',
  );
  const erase = db.prepare<[string]>('DELETE FROM usage_counters WHERE user_id = ?');
  const addAndTidy = db.transaction((key: { counter: string; userId: string; day: string }, amount: number) => {
    dropOtherDays.run(key);
    return add.get({ ...key, amount })!.amount;
  });
  return {
    async addUsage(key, amount) {
      return addAndTidy.immediate(
        { counter: key.counter, userId: key.userId, day: key.day },
        Math.max(0, Math.round(amount)),
      );
    },
    async readUsage(key) {
      return read.get({ counter: key.counter, userId: key.userId, day: key.day })?.amount ?? 0;
    },
    async eraseUsage(userId) {
      return erase.run(userId).changes;
    },
  };
}
