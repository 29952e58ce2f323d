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
} from '../../../ports/insights.ts';
import { matchesQuery, newestFirst, totalsOf } from '../../insights-common.ts';
import { keyLocks } from '../key-lock.ts';
import { fromJson, toJson } from '../mongo-common.ts';
import { insightCounters } from './mongo-insight-counters.ts';
import { upgradeInsights } from './mongo-insight-upgrade.ts';

/**
 * The insights room on MongoDB. What FerretDB 1.24 on PostgreSQL (the test server) does to every
 * query shapes it: it uses no index, `_id` included (each filter becomes `_jsonb->'f' @> value`, a
 * scan of the whole collection), and it turns each field of each document it returns into BSON one
 * at a time. So every read is by `_id` in a collection kept small for what reads it often, and the
 * documents read often hold few fields:
 *   - in `insight_counters` (mongo-insight-counters.ts): `n:<day>:<version>` and `n:<day>:*` (every
 *     version), the day's counters as one JSON text; in `insight_open`, `o:<day>`, the conversations
 *     whose last turn fell on that day (the drop-off's open ones); each written under its key lock;
 *   - in `insights`, `c:<day>:<bucket>`: the summaries of conversations that started that day, spread
 *     over BUCKETS documents by user, each summary a JSON string under its key (`$set` upserts);
 *   - in `insight_users`, `<userId>`: where that user's conversations are, for the transcript
 *     view and erasure.
 * Documents of the earlier shape (counters as nested fields in `insights`) are brought over when the
 * room opens (mongo-insight-upgrade.ts).
 * MongoDB features used: find/findOne by `_id` and by a string field, `insertOne`, `replaceOne` and
 * `updateOne` with `$set`/`$unset` on nested paths and `upsert`, `deleteOne`, `deleteMany` with a
 * range on `day`, `find` with `$in` and a range on the logs collection, and the key locks' unique
 * index (key-lock.ts). No aggregation stage, no transaction, no change stream.
 */
const BUCKETS = 8;
/**
 * The search reads newest days first and stops at the search budget (conversations read, as on
 * SQLite) or after this long, whichever comes first, saying how far back it read: FerretDB 1.x
 * reads a day's buckets far slower than MongoDB.
 */
const SEARCH_BUDGET_MS = 700;
/** With no start given, the search looks back this many days at most. */
const SEARCH_DAYS = 366;

interface InsightDoc {
  _id: string;
  /** 'n': a day's counters of the earlier shape, until the upgrade moves them. */
  kind: 'n' | 'c';
  day: number;
  c?: Record<string, unknown>;
}

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

/** Which of the day's BUCKETS documents holds a user's conversations (bench/insights-child.ts seeds them the same way). */
export function bucketOf(userId: string): number {
  let hash = 0;
  for (let i = 0; i < userId.length; i++) hash = (hash * 31 + userId.charCodeAt(i)) | 0;
  return Math.abs(hash) % BUCKETS;
}

export const conversationKey = (s: { userId: string; startedAt: number }) => encodeKey(`${s.userId}\u0000${s.startedAt}`);
export const bucketId = (day: number, bucket: number) => `c:${day}:${bucket}`;

export async function mongoInsights(db: Db, options: InsightsRoomOptions = {}): Promise<InsightsRoom> {
  const budget = options.searchBudget ?? DEFAULT_SEARCH_BUDGET;
  const insights = db.collection<InsightDoc>('insights');
  const users = db.collection<UserIndexDoc>('insight_users');
  const logs = db.collection<{ kind: string; userId: string; timestamp: number; data: string }>('logs');


  /** One user's conversations (unordered), from the day buckets their index names. */
  const summariesOf = async (userId: string): Promise<ConversationSummary[]> => {
    const index = await users.findOne({ _id: userId });
    const byBucket = new Map<string, string[]>();
    for (const [key, id] of Object.entries(index?.c ?? {})) byBucket.set(id, [...(byBucket.get(id) ?? []), key]);
    const found: ConversationSummary[] = [];
    for (const [id, keys] of byBucket) {
      const doc = await insights.findOne({ _id: id });
      for (const key of keys) {
        const text = doc?.c?.[key];
        if (typeof text === 'string') found.push(fromJson<ConversationSummary>(text));
      }
    }
    return found;
  };

  const readBuckets = async (day: number): Promise<ConversationSummary[]> => {
    const docs = await Promise.all(Array.from({ length: BUCKETS }, (_, b) => insights.findOne({ _id: bucketId(day, b) })));
    return docs.flatMap((doc) => Object.values(doc?.c ?? {}).map((text) => fromJson<ConversationSummary>(text as string)));
  };

  const counters = insightCounters(db, keyLocks(db));
  await upgradeInsights(db, counters, readBuckets, conversationKey);

  return {
    async record(batch) {
      await counters.add(batch.counts);
      const byBucket = new Map<string, { day: number; set: Record<string, string> }>();
      for (const summary of batch.conversations) {
        const day = dayOf(summary.startedAt);
        const id = bucketId(day, bucketOf(summary.userId));
        let entry = byBucket.get(id);
        if (!entry) byBucket.set(id, (entry = { day, set: {} }));
        entry.set[`c.${conversationKey(summary)}`] = toJson(summary);
        await users.updateOne({ _id: summary.userId }, { $set: { [`c.${conversationKey(summary)}`]: id } }, { upsert: true });
      }
      for (const [id, { day, set }] of byBucket) {
        await insights.updateOne({ _id: id }, { $set: { ...set, kind: 'c', day } }, { upsert: true });
      }
      await counters.noteTurns(batch.conversations, conversationKey);
    },

    async counters(range, metrics) {
      const wanted = new Set<string>(metrics.filter((m) => (METRICS as readonly string[]).includes(m)));
      const rows: Array<[number, Metric, string, string, number]> = [];
      for (const { day, tree } of await counters.read(range.fromDay, range.toDay, range.version)) {
        for (const [metric, byA] of Object.entries(tree ?? {})) {
          if (!wanted.has(metric)) continue;
          for (const [a, byB] of Object.entries(byA)) for (const [b, n] of Object.entries(byB)) rows.push([day, metric as Metric, a, b, n]);
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
      for (let day = lastDay; day >= firstDay; day--) {
        const inRange = (await readBuckets(day))
          .filter((s) => s.startedAt >= query.fromMs && s.startedAt < query.toMs)
          .filter((s) => !query.before || s.startedAt < query.before.startedAt || (s.startedAt === query.before.startedAt && s.userId < query.before.userId));
        read += inRange.length;
        items.push(...inRange.filter((s) => matchesQuery(s, query)).sort(newestFirst));
        if (items.length > query.limit) break;
        // A day is read whole, so the budget is checked between days: the page says how far back it read.
        if (day > firstDay && (read >= budget || performance.now() - started > SEARCH_BUDGET_MS)) {
          return { items, next: { startedAt: day * DAY_MS, userId: '' }, searchedBackTo: day * DAY_MS, searched: read };
        }
      }
      const page = items.slice(0, query.limit);
      const last = page.at(-1);
      return items.length > query.limit && last ? { items: page, next: { startedAt: last.startedAt, userId: last.userId } } : { items: page };
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
      for (const [key, id] of entries) await insights.updateOne({ _id: id }, { $unset: { [`c.${key}`]: '' } });
      await users.deleteOne({ _id: userId });
      return entries.length;
    },

    async purge(conversationsBefore, countersBeforeDay) {
      // By the day they started: a bucket goes whole once its day is past the cut-off.
      const conversations = conversationsBefore === undefined ? 0 : (await insights.deleteMany({ kind: 'c', day: { $lt: dayOf(conversationsBefore) } })).deletedCount;
      // The open lists name users: they go with the conversations. A day's counters are one document: the metric's part of it goes.
      const counted = await counters.purge(conversationsBefore === undefined ? undefined : dayOf(conversationsBefore), countersBeforeDay);
      return { conversations, counters: counted };
    },
  };
}

