import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Store } from '../ports/store.ts';
import type { StoreParts } from '../ports/store-parts.ts';
import { mongoParts } from '../stores/mongo/mongo-parts.ts';
import { openMongoStore, type MongoStore, type StoreCommand } from '../stores/mongo/mongo-store.ts';
import { sqliteParts } from '../stores/sqlite/sqlite-parts.ts';
import { openSqliteStore, type SqliteStore } from '../stores/sqlite/sqlite-store.ts';

/** The store the configuration names, with its adapter-level handle (the stores below open on its own connection). */
export type OpenedStore = SqliteStore | MongoStore;

/**
 * Opens the store the configuration names: MongoDB with MONGODB_URL, else the embedded SQLite
 * file in DATA_DIR. The one place that chooses between them; the server, the tests' servers and
 * the command line all open their store here.
 */
export async function openStore(
  config: Pick<Config, 'MONGODB_URL' | 'REDIS_URL' | 'DATA_DIR'>,
  options: {
    /** Each command the Mongo store sends (command monitoring). */
    readonly onCommand?: (command: StoreCommand) => void;
    /** Whether other processes write the database too (MongoStoreOptions.shared); a server alone is not. */
    readonly shared?: boolean;
  } = {},
): Promise<OpenedStore> {
  const { onCommand } = options;
  // Without REDIS_URL a server is the one process writing the database: its locks stay in memory.
  if (config.MONGODB_URL)
    return openMongoStore({
      url: config.MONGODB_URL,
      shared: options.shared ?? Boolean(config.REDIS_URL),
      ...(onCommand ? { onCommand } : {}),
    });
  // A fresh checkout has no data folder yet; the embedded store makes its own.
  // Personal data and secrets live here: a new folder is the server user's alone.
  const dataDir = path.resolve(config.DATA_DIR);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  return openSqliteStore({ file: path.join(dataDir, 'chatbot.sqlite') });
}

/** A throw-away store in memory: a bot test run keeps its users there. */
export function openScratchStore(): Store {
  return openSqliteStore({ file: ':memory:' });
}

/** The parts of an opened store, by its kind: with openStore, the one place that tells SQLite from Mongo. */
export function storeParts(store: OpenedStore): StoreParts {
  return store.kind === 'sqlite' ? sqliteParts(store) : mongoParts(store);
}
