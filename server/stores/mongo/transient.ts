import { Collection, MongoError, MongoNetworkError, type Db } from 'mongodb';
import { timeLeft } from '../../ports/deadline.ts';

/*
 * Errors that say "not now" rather than "no": the same operation may well
 * succeed a moment later. On MongoDB: the driver's error labels for retryable
 * writes and transient transaction errors, write conflicts, a primary stepping
 * down or shutting down, network faults. On FerretDB's SQLite backend:
 * SQLITE_BUSY, reported as "database is locked" when another connection holds
 * the file's write lock longer than its busy timeout.
 */
const TRANSIENT_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  112, // WriteConflict
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

export function isTransient(error: unknown): boolean {
  if (error instanceof MongoNetworkError) return true;
  if (error instanceof MongoError) {
    if (error.hasErrorLabel('RetryableWriteError') || error.hasErrorLabel('TransientTransactionError')) return true;
    if (typeof error.code === 'number' && TRANSIENT_CODES.has(error.code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /database is locked|SQLITE_BUSY/i.test(message);
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly attempts: number;
  /** First pause; each next one doubles, up to maxPauseMs, with jitter. */
  readonly firstPauseMs: number;
  readonly maxPauseMs: number;
}

/** About 5 s of retrying in the worst case: longer than a step-down election, short of a user giving up. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, firstPauseMs: 25, maxPauseMs: 1500 };

/** Runs `operation`, again after a pause while it fails transiently, tries remain and the work's deadline (if any) allows. */
export async function retryTransient<T>(operation: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  let pause = policy.firstPauseMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= policy.attempts || !isTransient(error)) throw error;
      // Jitter: many writers that failed together do not all come back together.
      const wait = pause / 2 + Math.random() * pause;
      // A person waits on this (a visitor's message, ports/deadline.ts): no try that would start past their deadline.
      if (wait >= timeLeft()) throw error;
      await new Promise((done) => setTimeout(done, wait));
      pause = Math.min(pause * 2, policy.maxPauseMs);
    }
  }
}

/**
 * One-shot collection methods retried one by one, so a transient fault halfway
 * through a multi-step write costs a pause, not the steps already done.
 * Cursors (find, aggregate) are not wrapped: their reads are retried by the
 * store method that makes them (see mongo-store.ts, mongo-job-claims.ts).
 */
const RETRIED = new Set([
  'insertOne',
  'insertMany',
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOne',
  'findOneAndUpdate',
  'findOneAndDelete',
  'countDocuments',
  'bulkWrite',
]);

/** The database with every collection's one-shot methods retried on transient errors. */
export function retryingDb(db: Db, policy: RetryPolicy = DEFAULT_RETRY): Db {
  const wrapped = new Map<string, Collection>();
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver) as unknown;
      return (name: string) => {
        let collection = wrapped.get(name);
        if (collection === undefined) {
          collection = retryingCollection(target.collection(name), policy);
          wrapped.set(name, collection);
        }
        return collection;
      };
    },
  });
}

function retryingCollection(collection: Collection, policy: RetryPolicy): Collection {
  return new Proxy(collection, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== 'string' || !RETRIED.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        retryTransient(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args), policy);
    },
  });
}
