import type { Collection, Db } from 'mongodb';
import type { KeyLocks } from './key-lock.ts';

/**
 * The insights' small text documents on MongoDB: the counters (mongo-insight-counters.ts) and the
 * open-conversation lists (mongo-insight-open.ts), each document one compact JSON text in `t`.
 *
 * Why text and not nested fields with `$inc`: FerretDB 1.x (the test server) turns every field of a
 * document it reads into BSON one by one (about 25 µs a field, 60 µs nested), and a day's counters
 * hold a thousand or more keys (every unprocessed input, FAQ miss and latency bucket), so thirty
 * days took seconds; one string of the same counters reads in milliseconds. Why a collection of
 * its own: FerretDB 1.24 on PostgreSQL answers every query, `_id` included, by reading the whole
 * collection (no index is used), so these documents must not sit beside the conversations' large
 * day buckets. A text can't take `$inc`, so each write reads, adds and writes back under the
 * document's key lock (key-lock.ts: an insert under a unique index, atomic on MongoDB and FerretDB).
 */
export const COUNTERS_COLLECTION = 'insight_counters';

export interface CounterDoc {
  _id: string;
  kind: 'n' | 'o' | 'u';
  day: number;
  t: string;
  /**
   * The ids of the latest batches added to an `n:` document (InsightsBatch.id), newest last, at
   * most APPLIED_IDS: a batch retried after a write that failed halfway skips the documents that
   * already hold it. Several, not one: in a cluster other nodes' batches land between a node's
   * failed write and its retry (about a second later).
   */
  f?: string[];
}

/** The open lists apart: they grow with the conversations of a day, and every read of a counter would read them through. */
export const OPEN_COLLECTION = 'insight_open';

/** Batch ids a counter document remembers: many more than the nodes times the writes between a failure and its retry. */
export const APPLIED_IDS = 64;

const lockKey = (id: string) => `insights:${id}`;

/** Reads a document's text, changes it and writes it back, under its lock (insightCounters' `change`). */
export type ChangeDoc = <T extends object>(
  id: string,
  kind: CounterDoc['kind'],
  day: number,
  edit: (tree: T) => boolean,
  batchId?: string,
) => Promise<void>;

export function counterCollection(db: Db, name: string = COUNTERS_COLLECTION): Collection<CounterDoc> {
  return db.collection<CounterDoc>(name);
}

/**
 * Reads the document's text, changes it, writes it back: under its lock, so writers never lose
 * each other's counts. With `batchId`, a document that holds the id already is left alone (the
 * batch's earlier write reached it), and the write records the id with the counts it adds.
 */
export function lockedChange(db: Db, locks: KeyLocks): ChangeDoc {
  const docs = counterCollection(db);
  const lists = counterCollection(db, OPEN_COLLECTION);
  return (id, kind, day, edit, batchId) =>
    locks.withLock(lockKey(id), async () => {
      const where = kind === 'o' ? lists : docs;
      const doc = await where.findOne({ _id: id });
      if (batchId !== undefined && doc?.f?.includes(batchId)) return;
      const tree = doc ? JSON.parse(doc.t) : {};
      if (!edit(tree)) return;
      const applied = batchId === undefined ? doc?.f : [...(doc?.f ?? []), batchId].slice(-APPLIED_IDS);
      await where.replaceOne(
        { _id: id },
        { kind, day, t: JSON.stringify(tree), ...(applied ? { f: applied } : {}) },
        { upsert: true },
      );
    });
}
