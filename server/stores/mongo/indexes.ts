import type { Collection, Db, Document, IndexDescription } from 'mongodb';
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
    // The userData export of every known user, by last message (else creation): see UserDoc.listedAt.
    { key: { listedAt: 1, order: 1 }, name: 'by_listed' },
    // The sweep of turn outboxes a crash left unmoved (turn-outbox.ts).
    { key: { outboxAt: 1 }, name: 'by_outbox' },
    // Preview users (ports/preview.ts), found with a string range on the mark ({ $gte: '' }),
    // which leaves out every user without one: a plain index, as FerretDB has no sparse or partial ones.
    { key: { 'preview.accountId': 1, updatedAt: 1 }, name: 'previews' },
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
  // The event log of subscriptions (mongo-event-log.ts): _id is the event's id, seq its place.
  [COLLECTIONS.subscriptionEvents]: [
    { key: { seq: 1 }, name: 'seq', unique: true },
    { key: { kind: 1, seq: 1 }, name: 'kind_seq' },
    { key: { userId: 1 }, name: 'user' },
    { key: { at: 1 }, name: 'at' },
  ],
  [COLLECTIONS.usageCounters]: [{ key: { userId: 1 }, name: 'user' }],
};

/** Indexes older versions created that nothing reads any more: dropped, as each costs every write. */
const RETIRED: Record<string, string[]> = {
  // The userData export read users by their last change; it reads by_listed now.
  [COLLECTIONS.users]: ['by_activity'],
};

/**
 * Creates missing indexes at every start-up, and drops retired ones. Only the missing ones are sent:
 * FerretDB 1.24 drops the connection when asked to create an index that
 * already exists, which would make every restart on an existing database fail.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  await ensureCollectionIndexes(db, INDEXES);
}

/**
 * Creates the missing ones of `indexes` (by collection). Stores with ports of their own (the
 * studio's versions, accounts, …) call it for their collections when their adapter opens.
 */
export async function ensureCollectionIndexes(
  db: Db,
  indexes: Readonly<Record<string, readonly IndexDescription[]>>,
): Promise<void> {
  const present = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  // The collections side by side: a restart waits for these before it listens, one round trip each
  // when they run in turn; each collection's own steps stay in order.
  await Promise.all(
    Object.entries(indexes).map(async ([collection, wanted]) => {
      const existing = present.has(collection)
        ? new Set((await db.collection(collection).listIndexes().toArray()).map((index) => String(index.name)))
        : new Set<string>();
      const missing = wanted.filter((index) => !existing.has(String(index.name)));
      if (missing.length > 0) await db.collection(collection).createIndexes([...missing]);
      for (const name of RETIRED[collection] ?? [])
        if (existing.has(name)) await db.collection(collection).dropIndex(name);
    }),
  );
}

/** A collection of a store part with indexes of its own, handed out once they are there. */
export async function indexedCollection<T extends Document>(
  db: Db,
  name: string,
  indexes: readonly IndexDescription[],
): Promise<Collection<T>> {
  await ensureCollectionIndexes(db, { [name]: indexes });
  return db.collection<T>(name);
}
