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
import { matchesQuery, newestFirst, openOf, totalsOf } from '../../insights-common.ts';
import { fromJson, toJson } from '../mongo-common.ts';

/**
 * The insights room on MongoDB. Every read is by `_id` (the one lookup FerretDB 1.x, the test
 * server, answers without reading the whole collection), so nothing here grows with the
 * transcript:
 *   - `n:<day>:<version>` and `n:<day>:*` (every version): the day's counters, nested
 *     `c.<metric>.<a>.<b>` with `a`/`b` encoded as keys (encodeKey), written with `$inc` upserts;
 *   - `c:<day>:<bucket>`: the summaries of conversations that started that day, spread over
 *     BUCKETS documents by user, each summary a JSON string under its key (`$set` upserts);
 *   - in `insight_users`, `<userId>`: where that user's conversations are, for the transcript
 *     view and erasure.
 * Features used: find/findOne by `_id`, `updateOne` with `$inc`, `$set` and `$unset` on nested
 * paths and `upsert`, `deleteOne`, `deleteMany` with a range on `day`, `find` with `$in` and a
 * range on the logs collection. No aggregation stage, no transaction, no change stream.
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

  const readBuckets = async (day: number): Promise<ConversationSummary[]> => {
    const docs = await Promise.all(Array.from({ length: BUCKETS }, (_, b) => insights.findOne({ _id: bucketId(day, b) })));
    return docs.flatMap((doc) => Object.values(doc?.c ?? {}).map((text) => fromJson<ConversationSummary>(text as string)));
  };

  return {
    async record(batch) {
      const byDoc = new Map<string, { day: number; inc: Record<string, number> }>();
      const inc = (id: string, day: number, path: string, n: number) => {
        let entry = byDoc.get(id);
        if (!entry) byDoc.set(id, (entry = { day, inc: {} }));
        entry.inc[path] = (entry.inc[path] ?? 0) + n;
      };
      for (const delta of batch.counts) {
        const path = `c.${delta.metric}.${encodeKey(delta.a ?? '')}.${encodeKey(delta.b ?? '')}`;
        inc(`n:${delta.day}:${encodeKey(delta.version)}`, delta.day, path, delta.n);
        inc(`n:${delta.day}:*`, delta.day, path, delta.n);
      }
      for (const [id, { day, inc: fields }] of byDoc) {
        await insights.updateOne({ _id: id }, { $inc: fields, $set: { kind: 'n', day } }, { upsert: true });
      }
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
    },

    async counters(range, metrics) {
      const wanted = new Set<string>(metrics);
      const suffix = range.version === undefined ? '*' : encodeKey(range.version);
      const days = Array.from({ length: Math.max(0, range.toDay - range.fromDay + 1) }, (_, i) => range.fromDay + i);
      const docs = await Promise.all(days.map((day) => insights.findOne({ _id: `n:${day}:${suffix}` })));
      const rows: Array<[number, Metric, string, string, number]> = [];
      docs.forEach((doc, i) => {
        for (const [metric, byA] of Object.entries(doc?.c ?? {})) {
          if (!wanted.has(metric) || !(METRICS as readonly string[]).includes(metric)) continue;
          for (const [a, byB] of Object.entries(byA as Record<string, Record<string, number>>)) {
            for (const [b, n] of Object.entries(byB)) rows.push([days[i]!, metric as Metric, decodeKey(a), decodeKey(b), n]);
          }
        }
      });
      return totalsOf(rows);
    },

    async openConversations(sinceMs, limit) {
      // A conversation still open started the day of `sinceMs`, the day before or after (one going on for days counts as stopped).
      const day = dayOf(sinceMs);
      const found = [...(await readBuckets(day + 1)), ...(await readBuckets(day)), ...(await readBuckets(day - 1))].filter((s) => s.lastAt >= sinceMs);
      return found.slice(0, limit).map(openOf);
    },

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

    async conversationsOf(userId, limit) {
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
      return found.sort(newestFirst).slice(0, limit);
    },

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
      for (const [key, id] of entries) await insights.updateOne({ _id: id }, { $unset: { [`c.${key}`]: '' } });
      await users.deleteOne({ _id: userId });
      return entries.length;
    },

    async purge(conversationsBefore, countersBeforeDay) {
      // By the day they started: a bucket goes whole once its day is past the cut-off.
      const conversations = conversationsBefore === undefined ? 0 : (await insights.deleteMany({ kind: 'c', day: { $lt: dayOf(conversationsBefore) } })).deletedCount;
      // A day's counters are one document: the metric's part of it goes.
      let counters = 0;
      for (const [metric, beforeDay] of Object.entries(countersBeforeDay)) {
        if (beforeDay === undefined) continue;
        counters += (await insights.updateMany({ kind: 'n', day: { $lt: beforeDay }, [`c.${metric}`]: { $exists: true } }, { $unset: { [`c.${metric}`]: '' } })).modifiedCount;
      }
      return { conversations, counters };
    },
  };
}

