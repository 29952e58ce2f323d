import type { Db, IndexDescription } from 'mongodb';
import { COLLECTIONS } from './mongo-common.ts';

/**
 * Every index the adapter relies on. Uniqueness here is what makes
 * the key locks (see key-lock.ts) work and backs up seq and clientId
 * uniqueness. Only plain and unique compound indexes: FerretDB 1.x lacks
 * partialFilterExpression.
 */
const INDEXES: Record<string, IndexDescription[]> = {
  [COLLECTIONS.users]: [
    { key: { lastMessageAt: 1, order: 1 }, name: 'by_last_message' },
    // The userData export of every known user, by last activity.
    { key: { updatedAt: 1, order: 1 }, name: 'by_activity' },
  ],
  [COLLECTIONS.transcript]: [
    { key: { userId: 1, seq: 1 }, name: 'user_seq', unique: true },
    // dedupKey is `c:<clientId>` or `s:<seq>`: unique per user without a partial index.
    { key: { userId: 1, dedupKey: 1 }, name: 'user_dedup', unique: true },
    // Retention and the transcript export.
    { key: { at: 1, _id: 1 }, name: 'at_id' },
  ],
  [COLLECTIONS.logs]: [
    { key: { kind: 1, timestamp: 1, _id: 1 }, name: 'kind_time_id' },
    // An erasure finds one user's rows without reading every log.
    { key: { userId: 1, kind: 1 }, name: 'user_kind' },
  ],
  [COLLECTIONS.locks]: [{ key: { key: 1 }, name: 'key', unique: true }],
  [COLLECTIONS.leases]: [{ key: { key: 1 }, name: 'key', unique: true }],
  [COLLECTIONS.jobs]: [
    { key: { status: 1, runAt: 1 }, name: 'due' },
    { key: { status: 1, leaseUntil: 1 }, name: 'expired_leases' },
    { key: { group: 1, _id: 1 }, name: 'group_id' },
  ],
  [COLLECTIONS.datasetRows]: [
    { key: { dataset: 1, generation: 1, id: 1 }, name: 'dataset_generation_id', unique: true },
  ],
  // The event log of subscriptions (mongo-subscriptions.ts): _id is the event's id, seq its place.
  [COLLECTIONS.subscriptionEvents]: [
    { key: { seq: 1 }, name: 'seq', unique: true },
    { key: { kind: 1, seq: 1 }, name: 'kind_seq' },
    { key: { userId: 1 }, name: 'user' },
    { key: { at: 1 }, name: 'at' },
  ],
  [COLLECTIONS.usageCounters]: [{ key: { userId: 1 }, name: 'user' }],
};

/**
 * Creates missing indexes at every start-up. Only the missing ones are sent:
 * FerretDB 1.24 drops the connection when asked to create an index that
 * already exists, which would make every restart on an existing database fail.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  const present = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const [collection, indexes] of Object.entries(INDEXES)) {
    const existing = present.has(collection)
      ? new Set((await db.collection(collection).listIndexes().toArray()).map((index) => String(index.name)))
      : new Set<string>();
    const missing = indexes.filter((index) => !existing.has(String(index.name)));
    if (missing.length > 0) await db.collection(collection).createIndexes(missing);
  }
}
