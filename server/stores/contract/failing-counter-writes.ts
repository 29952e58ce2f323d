import type { Database } from '../sqlite/database.ts';
import type { Db } from 'mongodb';
import { COUNTERS_COLLECTION } from '../mongo/mongo-insight-docs.ts';

/**
 * Stores whose insights counter write fails partway, as a store that goes away in the middle of
 * a flush does: the real store underneath, with the counter write after the first `okWrites`
 * refused `failures` times. A refusal is a plain error, so the store's own retry of transient
 * faults does not hide it.
 */
export interface CounterWriteFault {
  /** Counter writes let through before the next refusal. */
  okWrites: number;
  /** Refusals still to come. */
  failures: number;
}

function refuse(fault: CounterWriteFault): boolean {
  if (fault.failures === 0) return false;
  if (fault.okWrites > 0) {
    fault.okWrites--;
    return false;
  }
  fault.failures--;
  return true;
}

/** MongoDB: each counter document is its own write (replaceOne of `insight_counters`). */
export function failingMongoCounters(db: Db, fault: CounterWriteFault): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== 'collection') return value;
      return (name: string) => {
        const collection = target.collection(name);
        if (name !== COUNTERS_COLLECTION) return collection;
        return new Proxy(collection, {
          get(c, p, r) {
            const method = Reflect.get(c, p, r) as unknown;
            if (p !== 'replaceOne' || typeof method !== 'function') return method;
            return (...args: unknown[]) => {
              if (refuse(fault)) return Promise.reject(new Error('the store went away halfway through the counters'));
              return (method as (...a: unknown[]) => Promise<unknown>).apply(c, args);
            };
          },
        });
      };
    },
  });
}

/** SQLite: each counter row is one statement run, inside the batch's transaction. */
export function failingSqliteCounters(db: Database, fault: CounterWriteFault): Database {
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'prepare') return (value as (...a: unknown[]) => unknown).bind(target);
      return (sql: string) => {
        const statement = target.prepare(sql);
        if (!/INSERT INTO insight_counts/.test(sql)) return statement;
        return new Proxy(statement, {
          get(s, p) {
            const method = Reflect.get(s, p, s) as unknown;
            if (typeof method !== 'function') return method;
            if (p !== 'run') return (method as (...a: unknown[]) => unknown).bind(s);
            return (...args: unknown[]) => {
              if (refuse(fault)) throw new Error('the store went away halfway through the counters');
              return (method as (...a: unknown[]) => unknown).apply(s, args);
            };
          },
        });
      };
    },
  });
}
