import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterEach, beforeEach } from 'vitest';
import type { SubscriptionStore } from '../../ports/event-subscriptions.ts';
import type { Store } from '../../ports/store.ts';
import type { UsageCounters } from '../../ports/usage-counters.ts';
import { openMongoStore } from '../mongo/mongo-store.ts';
import { mongoSubscriptions } from '../mongo/mongo-subscriptions.ts';
import { mongoUsageCounters } from '../mongo/mongo-usage.ts';
import { openSqliteStore } from '../sqlite/sqlite-store.ts';
import { sqliteSubscriptions } from '../sqlite/sqlite-subscriptions.ts';
import { sqliteUsageCounters } from '../sqlite/sqlite-usage.ts';

/** One adapter under the contract: how to open a fresh, empty store. */
export interface StoreLeg {
  readonly name: string;
  open(): Promise<{ readonly store: Store; dispose(): Promise<void> }>;
  /** The ports beside the Store, opened on a store of this leg. */
  subscriptions(store: Store): SubscriptionStore;
  usage(store: Store): UsageCounters;
}

export const sqliteLeg: StoreLeg = {
  name: 'sqlite',
  subscriptions: sqliteSubscriptions,
  usage: sqliteUsageCounters,
  async open() {
    const dir = await mkdtemp(join(tmpdir(), 'store-contract-'));
    const store = openSqliteStore({ file: join(dir, 'store.db') });
    return {
      store,
      async dispose() {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

let databaseCounter = 0;

export function mongoLeg(url: string): StoreLeg {
  return {
    name: 'mongo',
    subscriptions: mongoSubscriptions,
    usage: mongoUsageCounters,
    async open() {
      databaseCounter += 1;
      const dbName = `contract_${process.pid}_${Date.now().toString(36)}_${databaseCounter}`;
      const store = await openMongoStore({ url, dbName });
      return {
        store,
        async dispose() {
          await store.close();
          const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
          try {
            await client.db(dbName).dropDatabase();
          } finally {
            await client.close();
          }
        },
      };
    },
  };
}

/** Registers a fresh store per test; the getter returns the current test's store. */
export function useFreshStore(leg: StoreLeg): () => Store {
  let current: { readonly store: Store; dispose(): Promise<void> } | null = null;
  beforeEach(async () => {
    current = await leg.open();
  });
  afterEach(async () => {
    const opened = current;
    current = null;
    await opened?.dispose();
  });
  return () => {
    if (current === null) throw new Error('no store: useFreshStore getter called outside a test');
    return current.store;
  };
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Yields to the event loop so concurrent async loops really interleave. */
export function tick(): Promise<void> {
  return new Promise((done) => setImmediate(done));
}
