import type { Database } from 'better-sqlite3';

/*
 * Ports beside the Store (event subscriptions, usage counters) live in the same database file
 * and share the store's connection: one writer, one WAL, one close. The store registers its
 * connection here when it opens, and those ports are opened from the store, so the Store port
 * itself gains no methods for them and the driver handle never leaves this folder.
 */
const handles = new WeakMap<object, Database>();

export function rememberDatabase(store: object, db: Database): void {
  handles.set(store, db);
}

/** The connection of a store opened by openSqliteStore; throws for any other object. */
export function databaseOf(store: object): Database {
  const db = handles.get(store);
  if (!db) throw new Error('not a store opened by openSqliteStore');
  return db;
}
