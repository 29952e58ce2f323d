import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterEach, beforeEach } from 'vitest';
import { openMongoStore, type MongoStore } from '../mongo/mongo-store.ts';
import { openSqliteStore, type SqliteStore } from '../sqlite/sqlite-store.ts';

/** One adapter under the contract: how to open a fresh, empty store. */
export interface StoreLeg {
  readonly name: string;
  open(): Promise<{ readonly store: SqliteStore | MongoStore; dispose(): Promise<void> }>;
}

export const sqliteLeg: StoreLeg = {
  name: 'sqlite',
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
export function useFreshStore(leg: StoreLeg): () => SqliteStore | MongoStore {
  let current: { readonly store: SqliteStore | MongoStore; dispose(): Promise<void> } | null = null;
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

/**
 * Registers a fresh store per test and, on it, a part with a port of its own (the studio's
 * versions, accounts, …) made by `make`; the getter returns the current test's part.
 */
export function useFreshPart<Part>(
  leg: StoreLeg,
  make: (store: SqliteStore | MongoStore) => Part | Promise<Part>,
): () => Part {
  let current: { readonly store: SqliteStore | MongoStore; dispose(): Promise<void> } | null = null;
  let part: Part | null = null;
  beforeEach(async () => {
    current = await leg.open();
    part = await make(current.store);
  });
  afterEach(async () => {
    await current?.dispose();
    current = null;
    part = null;
  });
  return () => {
    if (part === null) throw new Error('the part is only available inside a test');
    return part;
  };
}
