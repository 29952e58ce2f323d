import type { Db } from 'mongodb';
import {
  dayOf,
  DEFAULT_SEARCH_BUDGET,
  type InsightsStoreOptions,
  type ConversationSummary,
  type InsightsStore,
  type UserLogRow,
} from '../../ports/insights.ts';
import { newestFirst, totalsOf } from '../common/insights-common.ts';
import { keyLocks, type KeyLocks } from './key-lock.ts';
import { ensureCollectionIndexes } from './indexes.ts';
import { fromJson } from './mongo-common.ts';
import { upgradeBuckets } from './mongo-insight-bucket-upgrade.ts';
import { bucketId, bucketOf, conversationBuckets, CONVERSATIONS_COLLECTION } from './mongo-insight-conversations.ts';
import { insightCounters } from './mongo-insight-counters.ts';
import { OPEN_COLLECTION } from './mongo-insight-docs.ts';
import { searchDays } from './mongo-insight-search.ts';
import { insightUsers } from './mongo-insight-users.ts';

/**
 * The insights store on MongoDB. What FerretDB 1.24 on PostgreSQL (the test server) does to every
 * query shapes it: it uses no index, `_id` included (each filter becomes `_jsonb->'f' @> value`, a
 * scan of the whole collection), and it turns each field of each document it returns into BSON one
 * at a time. So every read is one query in a collection kept small for what reads it often, and the
 * documents read often hold few fields:
 *   - in `insight_counters` (mongo-insight-counters.ts): `n:<day>:<version>` and `n:<day>:*` (every
 *     version), the day's counters as one JSON text; in `insight_open` (mongo-insight-open.ts), `o:<day>:<bucket>`, the
 *     conversations whose last turn fell on that day (the drop-off's open ones); each written under its key lock;
 *   - in `insight_conversations` (mongo-insight-conversations.ts), `c:<day>:<bucket>`: the summaries
 *     of conversations that started that day, spread over BUCKETS documents by user, deflated JSON;
 *   - in `insight_users` (mongo-insight-users.ts), `<userId>`: where that user's conversations are,
 *     for the transcript view and erasure.
 * The search reads the day buckets (mongo-insight-search.ts).
 * Documents of earlier shapes are brought over when the store opens (mongo-insight-upgrade.ts,
 * mongo-insight-bucket-upgrade.ts).
 * MongoDB features used: find/findOne by `_id` and by `day` (indexed), `insertOne`, `replaceOne`
 * and `updateOne` with `$set`/`$unset` and `upsert`, an unordered `bulkWrite` of `updateOne`s,
 * `deleteOne`, `deleteMany` with a range on `day`, `find` with `$in` and a range on the logs
 * collection, binary fields, and the key locks' unique index (key-lock.ts). No aggregation stage,
 * no transaction, no change stream.
 */
/** The `day` index answers a day's buckets and the open lists on MongoDB (FerretDB reads no index). */
const INDEXES = {
  [CONVERSATIONS_COLLECTION]: [{ key: { day: 1 }, name: 'day' }],
  [OPEN_COLLECTION]: [{ key: { day: 1 }, name: 'day' }],
};

/** Any text as a key MongoDB and FerretDB accept: no '.', no leading '$', never empty. */
export function encodeKey(text: string): string {
  return `k${Buffer.from(text, 'utf8').toString('base64url')}`;
}

export function decodeKey(key: string): string {
  return Buffer.from(key.slice(1), 'base64url').toString('utf8');
}

export const conversationKey = (s: { userId: string; startedAt: number }) =>
  encodeKey(`${s.userId}\u0000${s.startedAt}`);
export { bucketId, bucketOf };

/**
 * `locks`: the store's (MongoStore.locks), which stay in memory when one process writes the database;
 * in the store by default. Each flush of the recorder took two lock writes per bucket in the store
 * on a single node too: about 4 % of the commands after a 200-user restart.
 */
export async function mongoInsights(
  db: Db,
  options: InsightsStoreOptions = {},
  locks: KeyLocks = keyLocks(db),
): Promise<InsightsStore> {
  const budget = options.searchBudget ?? DEFAULT_SEARCH_BUDGET;
  await ensureCollectionIndexes(db, INDEXES);
  const buckets = conversationBuckets(db, locks);
  const users = insightUsers(db, buckets, conversationKey);
  const logs = db.collection<{ kind: string; userId: string; timestamp: number; data: string }>('logs');

  const counters = insightCounters(db, locks);
  await upgradeBuckets(db, buckets, counters, conversationKey);

  return {
    async record(batch) {
      await counters.add(batch.counts, batch.id);
      const byBucket = new Map<string, { day: number; set: Record<string, ConversationSummary> }>();
      for (const summary of batch.conversations) {
        const day = dayOf(summary.startedAt);
        const id = bucketId(day, bucketOf(summary.userId));
        let entry = byBucket.get(id);
        if (!entry) byBucket.set(id, (entry = { day, set: {} }));
        entry.set[conversationKey(summary)] = summary;
      }
      await users.note(batch.conversations);
      for (const [id, { day, set }] of byBucket) {
        await buckets.change(id, day, (entries) => {
          Object.assign(entries, set);
          return true;
        });
      }
      await counters.noteTurns(batch.conversations, conversationKey);
    },

    counters: async (range, metrics) => totalsOf(await counters.rows(range, metrics)),

    openConversations: (sinceMs, limit) => counters.open(sinceMs, limit),

    searchConversations: (query) => searchDays(buckets.day, query, budget),

    conversationsOf: (userId, limit) =>
      users.summariesOf(userId).then((found) => found.sort(newestFirst).slice(0, limit)),

    async userLogs(userId, kinds, fromMs, toMs, limit) {
      const docs = await logs
        .find({ userId, kind: { $in: [...kinds] }, timestamp: { $gte: fromMs, $lt: toMs } })
        .sort({ timestamp: 1, _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map((doc): UserLogRow => ({ kind: doc.kind, timestamp: doc.timestamp, data: fromJson(doc.data) }));
    },

    async eraseUser(userId) {
      const byBucket = await users.keysByBucket(userId);
      await counters.forget(await users.summariesOf(userId), conversationKey);
      let erased = 0;
      for (const [id, keys] of byBucket) {
        erased += keys.length;
        const day = Number(/^c:(-?\d+):/.exec(id)?.[1]);
        if (!Number.isSafeInteger(day)) continue;
        await buckets.change(id, day, (bucket) => {
          const had = keys.filter((key) => key in bucket);
          for (const key of had) delete bucket[key];
          return had.length > 0;
        });
      }
      await users.forget(userId);
      return erased;
    },

    async purge(conversationsBefore, countersBeforeDay) {
      // By the day they started: a bucket goes whole once its day is past the cut-off.
      const conversations = conversationsBefore === undefined ? 0 : await buckets.purge(dayOf(conversationsBefore));
      // The open lists name users: they go with the conversations. A day's counters are one document: the metric's part of it goes.
      const counted = await counters.purge(
        conversationsBefore === undefined ? undefined : dayOf(conversationsBefore),
        countersBeforeDay,
      );
      return { conversations, counters: counted };
    },
  };
}
