import type { Db } from 'mongodb';
import {
  dayOf,
  DAY_MS,
  DEFAULT_SEARCH_BUDGET,
  METRICS,
  type InsightsRoomOptions,
  type ConversationSummary,
  type InsightsRoom,
  type Metric,
  type UserLogRow,
} from '../../ports/insights.ts';
import { matchesQuery, newestFirst, totalsOf } from '../insights-common.ts';
import { keyLocks, type KeyLocks } from './key-lock.ts';
import { ensureCollectionIndexes } from './indexes.ts';
import { fromJson } from './mongo-common.ts';
import { upgradeBuckets } from './mongo-insight-bucket-upgrade.ts';
import { bucketId, bucketOf, conversationBuckets, CONVERSATIONS_COLLECTION } from './mongo-insight-conversations.ts';
import { insightCounters, OPEN_COLLECTION } from './mongo-insight-counters.ts';

/**
 * The insights room on MongoDB. What FerretDB 1.24 on PostgreSQL (the test server) does to every
 * query shapes it: it uses no index, `_id` included (each filter becomes `_jsonb->'f' @> value`, a
 * scan of the whole collection), and it turns each field of each document it returns into BSON one
 * at a time. So every read is one query in a collection kept small for what reads it often, and the
 * documents read often hold few fields:
 *   - in `insight_counters` (mongo-insight-counters.ts): `n:<day>:<version>` and `n:<day>:*` (every
 *     version), the day's counters as one JSON text; in `insight_open`, `o:<day>:<bucket>`, the
 *     conversations whose last turn fell on that day (the drop-off's open ones); each written under its key lock;
 *   - in `insight_conversations` (mongo-insight-conversations.ts), `c:<day>:<bucket>`: the summaries
 *     of conversations that started that day, spread over BUCKETS documents by user, deflated JSON;
 *   - in `insight_users`, `<userId>`: where that user's conversations are, for the transcript
 *     view and erasure.
 * Documents of earlier shapes are brought over when the room opens (mongo-insight-upgrade.ts,
 * mongo-insight-bucket-upgrade.ts).
 * MongoDB features used: find/findOne by `_id` and by `day` (indexed), `insertOne`, `replaceOne`
 * and `updateOne` with `$set`/`$unset` and `upsert`, an unordered `bulkWrite` of `updateOne`s,
 * `deleteOne`, `deleteMany` with a range on `day`, `find` with `$in` and a range on the logs
 * collection, binary fields, and the key locks' unique index (key-lock.ts). No aggregation stage,
 * no transaction, no change stream.
 */
/**
 * The search reads newest days first and stops at the search budget (conversations read, as on
 * SQLite) or when the next day would end after this long, whichever comes first, saying how far
 * back it read: FerretDB 1.x reads a day's buckets far slower than MongoDB.
 */
const SEARCH_BUDGET_MS = 700;
/**
 * Days the search has asked for at once: FerretDB takes ~35 ms a query whatever it returns (a scan),
 * so two in flight keep it busy while Node inflates and matches the day before.
 */
const READ_AHEAD = 2;
/** With no start given, the search looks back this many days at most. */
const SEARCH_DAYS = 366;

/** The `day` index answers a day's buckets and the open lists on MongoDB (FerretDB reads no index). */
const INDEXES = {
  [CONVERSATIONS_COLLECTION]: [{ key: { day: 1 }, name: 'day' }],
  [OPEN_COLLECTION]: [{ key: { day: 1 }, name: 'day' }],
};

interface UserIndexDoc {
  _id: string;
  /** conversation key → `c:<day>:<bucket>` document id. */
  c?: Record<string, string>;
}

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
  options: InsightsRoomOptions = {},
  locks: KeyLocks = keyLocks(db),
): Promise<InsightsRoom> {
  const budget = options.searchBudget ?? DEFAULT_SEARCH_BUDGET;
  await ensureCollectionIndexes(db, INDEXES);
  const buckets = conversationBuckets(db, locks);
  const users = db.collection<UserIndexDoc>('insight_users');
  const logs = db.collection<{ kind: string; userId: string; timestamp: number; data: string }>('logs');

  /** One user's conversations (unordered), from the day buckets their index names. */
  const summariesOf = async (userId: string): Promise<ConversationSummary[]> => {
    const index = await users.findOne({ _id: userId });
    const byBucket = new Map<string, string[]>();
    for (const [key, id] of Object.entries(index?.c ?? {})) byBucket.set(id, [...(byBucket.get(id) ?? []), key]);
    return (await Promise.all([...byBucket].map(([id, keys]) => buckets.pick(id, keys)))).flat();
  };

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
      if (batch.conversations.length > 0) {
        // One round trip for the batch's users; each names only its own conversation's field.
        await users.bulkWrite(
          batch.conversations.map((summary) => ({
            updateOne: {
              filter: { _id: summary.userId },
              update: {
                $set: {
                  [`c.${conversationKey(summary)}`]: bucketId(dayOf(summary.startedAt), bucketOf(summary.userId)),
                },
              },
              upsert: true,
            },
          })),
          { ordered: false },
        );
      }
      for (const [id, { day, set }] of byBucket) {
        await buckets.change(id, day, (entries) => {
          Object.assign(entries, set);
          return true;
        });
      }
      await counters.noteTurns(batch.conversations, conversationKey);
    },

    async counters(range, metrics) {
      const wanted = new Set<string>(metrics.filter((m) => (METRICS as readonly string[]).includes(m)));
      const rows: Array<[number, Metric, string, string, number]> = [];
      for (const { day, tree } of await counters.read(range.fromDay, range.toDay, range.version)) {
        for (const [metric, byA] of Object.entries(tree ?? {})) {
          if (!wanted.has(metric)) continue;
          for (const [a, byB] of Object.entries(byA))
            for (const [b, n] of Object.entries(byB)) rows.push([day, metric as Metric, a, b, n]);
        }
      }
      return totalsOf(rows);
    },

    openConversations: (sinceMs, limit) => counters.open(sinceMs, limit),

    async searchConversations(query) {
      const started = performance.now();
      const lastDay = dayOf(Math.min(query.toMs - 1, query.before ? query.before.startedAt : Number.MAX_SAFE_INTEGER));
      // Bounded however wide the range asked for: a year of days at most.
      const firstDay = Math.max(dayOf(query.fromMs), lastDay - SEARCH_DAYS);
      const items: ConversationSummary[] = [];
      let read = 0;
      let slowestDay = 0;
      // The next days are asked for while this one is searched: the store reads while Node matches.
      const pending: Array<Promise<ConversationSummary[]>> = [];
      let asked = lastDay;
      const askMore = () => {
        while (pending.length < READ_AHEAD && asked >= firstDay) {
          const read = buckets.day(asked--);
          // Not awaited when the search stops before it: its failure then matters to no one.
          read.catch(() => undefined);
          pending.push(read);
        }
      };
      askMore();
      for (let day = lastDay; day >= firstDay; day--) {
        const dayStarted = performance.now();
        const summaries = await pending.shift()!;
        askMore();
        const inRange = summaries
          .filter((s) => s.startedAt >= query.fromMs && s.startedAt < query.toMs)
          .filter(
            (s) =>
              !query.before ||
              s.startedAt < query.before.startedAt ||
              (s.startedAt === query.before.startedAt && s.userId < query.before.userId),
          );
        read += inRange.length;
        items.push(...inRange.filter((s) => matchesQuery(s, query)).sort(newestFirst));
        slowestDay = Math.max(slowestDay, performance.now() - dayStarted);
        if (items.length > query.limit) break;
        // A day is read whole, so the budget is checked between days (would the next one end past it?): the page says how far back it read.
        if (day > firstDay && (read >= budget || performance.now() - started + slowestDay > SEARCH_BUDGET_MS)) {
          return { items, next: { startedAt: day * DAY_MS, userId: '' }, searchedBackTo: day * DAY_MS, searched: read };
        }
      }
      const page = items.slice(0, query.limit);
      const last = page.at(-1);
      return items.length > query.limit && last
        ? { items: page, next: { startedAt: last.startedAt, userId: last.userId } }
        : { items: page };
    },

    conversationsOf: (userId, limit) => summariesOf(userId).then((found) => found.sort(newestFirst).slice(0, limit)),

    async userLogs(userId, kinds, fromMs, toMs, limit) {
      const docs = await logs
        .find({ userId, kind: { $in: [...kinds] }, timestamp: { $gte: fromMs, $lt: toMs } })
        .sort({ timestamp: 1, _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map((doc): UserLogRow => ({ kind: doc.kind, timestamp: doc.timestamp, data: fromJson(doc.data) }));
    },

    async eraseUser(userId) {
      const index = await users.findOne({ _id: userId });
      const entries = Object.entries(index?.c ?? {});
      await counters.forget(await summariesOf(userId), conversationKey);
      const byBucket = new Map<string, string[]>();
      for (const [key, id] of entries) byBucket.set(id, [...(byBucket.get(id) ?? []), key]);
      for (const [id, keys] of byBucket) {
        const day = Number(/^c:(-?\d+):/.exec(id)?.[1]);
        if (!Number.isSafeInteger(day)) continue;
        await buckets.change(id, day, (bucket) => {
          const had = keys.filter((key) => key in bucket);
          for (const key of had) delete bucket[key];
          return had.length > 0;
        });
      }
      await users.deleteOne({ _id: userId });
      return entries.length;
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
