import type { Db } from 'mongodb';
import type { KeyLocks } from './key-lock.ts';

/*
 * Ports beside the Store (event subscriptions, usage counters) use the store's database and
 * key locks: one connection pool, one close. The store registers them here when it opens, and
 * those ports are opened from the store, so the Store port itself gains no methods for them.
 */
export interface MongoHandle {
  readonly db: Db;
  readonly locks: KeyLocks;
}

const handles = new WeakMap<object, MongoHandle>();

export function rememberHandle(store: object, handle: MongoHandle): void {
  handles.set(store, handle);
}

/** The database and locks of a store opened by openMongoStore; throws for any other object. */
export function handleOf(store: object): MongoHandle {
  const handle = handles.get(store);
  if (!handle) throw new Error('not a store opened by openMongoStore');
  return handle;
}
