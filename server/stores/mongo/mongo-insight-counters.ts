import type { Collection, Db } from 'mongodb';
import { dayOf, type ConversationSummary, type CountDelta, type OpenConversation } from '../../ports/insights.ts';
import type { KeyLocks } from './key-lock.ts';
import { bucketOf } from './mongo-insight-conversations.ts';

/**
 * The insights counters and the open-conversation lists on MongoDB, each in a small collection of its
 * own, each document one compact JSON text:
 *   - in `insight_counters`, `n:<day>:<version>` and `n:<day>:*` (every version): `t` = `{ metric: { a: { b: n } } }`;
 *   - in `insight_open`, `o:<day>:<bucket>`: `t` = `{ conversationKey: [startedAt, lastAt, lastVersion, lastStep] }`, the
 *     conversations whose last turn so far fell on that day (one moving on to the next day is
 *     written there too; the older entry is left behind and read as what it is, an older turn),
 *     spread over the BUCKETS of the conversations (by user, bucketOf): one document a day would
 *     reach MongoDB's 16 MB limit near 150,000 conversations a day, and each turn's flush would
 *     rewrite the whole day's list. A day's lists are read with one query (`find({ day })`).
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
/** The open lists apart: they grow with the conversations of a day, and every read of a counter would read them through. */
export const OPEN_COLLECTION = 'insight_open';

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

/** metric → a → b → n, as stored in an `n:` document's text. */
export type CounterTree = Record<string, Record<string, Record<string, number>>>;
/** conversationKey → [startedAt, lastAt, lastVersion, lastStep], as stored in an `o:` document's text. */
export type OpenTree = Record<string, [number, number, string, string | null]>;

/** Batch ids a counter document remembers: many more than the nodes times the writes between a failure and its retry. */
export const APPLIED_IDS = 64;

/** The days after the one of `sinceMs` whose open lists are read: a window of up to two days is seen whole. */
const OPEN_DAYS_AFTER = 2;

export const counterId = (day: number, version: string | undefined) =>
  `n:${day}:${version === undefined ? '*' : encodeVersion(version)}`;
export const openId = (day: number, bucket: number) => `o:${day}:${bucket}`;
const lockKey = (id: string) => `insights:${id}`;

/** A version as part of an id: `*` means every version, so a version named `*` is written `%2A`. */
function encodeVersion(version: string): string {
  return encodeURIComponent(version).replaceAll('*', '%2A');
}

/** A conversation as its day's open list holds it. */
export const openEntry = (s: ConversationSummary): OpenTree[string] => [
  s.startedAt,
  s.lastAt,
  s.lastVersion,
  s.lastStep,
];

export function addDelta(tree: CounterTree, metric: string, a: string, b: string, n: number): void {
  const byA = (tree[metric] ??= {});
  const byB = (byA[a] ??= {});
  byB[b] = (byB[b] ?? 0) + n;
}

export function counterCollection(db: Db, name: string = COUNTERS_COLLECTION): Collection<CounterDoc> {
  return db.collection<CounterDoc>(name);
}

export function insightCounters(db: Db, locks: KeyLocks) {
  const docs = counterCollection(db);
  const lists = counterCollection(db, OPEN_COLLECTION);

  /**
   * Reads the document's text, changes it, writes it back: under its lock, so writers never lose
   * each other's counts. With `batchId`, a document that holds the id already is left alone (the
   * batch's earlier write reached it), and the write records the id with the counts it adds.
   */
  const change = <T extends object>(
    id: string,
    kind: CounterDoc['kind'],
    day: number,
    edit: (tree: T) => boolean,
    batchId?: string,
  ) =>
    locks.withLock(lockKey(id), async () => {
      const where = kind === 'o' ? lists : docs;
      const doc = await where.findOne({ _id: id });
      if (batchId !== undefined && doc?.f?.includes(batchId)) return;
      const tree = (doc ? JSON.parse(doc.t) : {}) as T;
      if (!edit(tree)) return;
      const applied = batchId === undefined ? doc?.f : [...(doc?.f ?? []), batchId].slice(-APPLIED_IDS);
      await where.replaceOne(
        { _id: id },
        { kind, day, t: JSON.stringify(tree), ...(applied ? { f: applied } : {}) },
        { upsert: true },
      );
    });

  return {
    change,

    /** Adds the deltas, each into its version's document and the every-version one; `batchId` makes a retry count once. */
    async add(counts: readonly CountDelta[], batchId?: string): Promise<void> {
      const byDoc = new Map<string, { day: number; deltas: CountDelta[] }>();
      const push = (id: string, delta: CountDelta) => {
        let entry = byDoc.get(id);
        if (!entry) byDoc.set(id, (entry = { day: delta.day, deltas: [] }));
        entry.deltas.push(delta);
      };
      for (const delta of counts) {
        push(counterId(delta.day, delta.version), delta);
        push(counterId(delta.day, undefined), delta);
      }
      for (const [id, { day, deltas }] of byDoc) {
        await change<CounterTree>(
          id,
          'n',
          day,
          (tree) => {
            for (const d of deltas) addDelta(tree, d.metric, d.a ?? '', d.b ?? '', d.n);
            return true;
          },
          batchId,
        );
      }
    },

    /** Each day's counters of the range (null for a day without any), read by `_id`. */
    async read(
      fromDay: number,
      toDay: number,
      version: string | undefined,
    ): Promise<Array<{ day: number; tree: CounterTree | null }>> {
      const days = Array.from({ length: Math.max(0, toDay - fromDay + 1) }, (_, i) => fromDay + i);
      const found = await Promise.all(days.map((day) => docs.findOne({ _id: counterId(day, version) })));
      return days.map((day, i) => ({ day, tree: found[i] ? (JSON.parse(found[i].t) as CounterTree) : null }));
    },

    /** Writes where each conversation's last turn so far is, in the list of that turn's day. */
    async noteTurns(
      conversations: readonly ConversationSummary[],
      keyOf: (s: ConversationSummary) => string,
    ): Promise<void> {
      const byList = new Map<string, { day: number; list: ConversationSummary[] }>();
      for (const s of conversations) {
        const id = openId(dayOf(s.lastAt), bucketOf(s.userId));
        const entry = byList.get(id);
        if (entry) entry.list.push(s);
        else byList.set(id, { day: dayOf(s.lastAt), list: [s] });
      }
      for (const [id, { day, list }] of byList) {
        await change<OpenTree>(id, 'o', day, (tree) => {
          for (const s of list) tree[keyOf(s)] = openEntry(s);
          return true;
        });
      }
    },

    /** Conversations whose last turn is at or after `sinceMs`: a few small documents, never the conversations themselves. */
    async open(sinceMs: number, limit: number): Promise<OpenConversation[]> {
      const first = dayOf(sinceMs);
      const days = Array.from({ length: OPEN_DAYS_AFTER + 1 }, (_, i) => first + i);
      const found = (await Promise.all(days.map((day) => lists.find({ day }).toArray()))).flat();
      const latest = new Map<string, OpenConversation>();
      for (const doc of found) {
        for (const [key, [startedAt, lastAt, lastVersion, lastStep]] of Object.entries(JSON.parse(doc.t) as OpenTree)) {
          const known = latest.get(key);
          if (lastAt >= sinceMs && (!known || known.lastAt < lastAt))
            latest.set(key, { startedAt, lastAt, lastVersion, lastStep });
        }
      }
      return [...latest.values()].sort((a, b) => b.lastAt - a.lastAt).slice(0, limit);
    },

    /** Erasure: the user's conversations leave the open lists of every day their turns fell on. */
    async forget(
      conversations: readonly ConversationSummary[],
      keyOf: (s: ConversationSummary) => string,
    ): Promise<void> {
      const byList = new Map<string, { day: number; keys: string[] }>();
      for (const s of conversations) {
        // Bounded: a conversation's turns span its start to its last turn (a year of days at most is looked at).
        for (let day = dayOf(s.startedAt); day <= Math.min(dayOf(s.lastAt), dayOf(s.startedAt) + 366); day++) {
          const id = openId(day, bucketOf(s.userId));
          const entry = byList.get(id);
          if (entry) entry.keys.push(keyOf(s));
          else byList.set(id, { day, keys: [keyOf(s)] });
        }
      }
      for (const [id, { day, keys }] of byList) {
        await change<OpenTree>(id, 'o', day, (tree) => {
          const had = keys.filter((key) => key in tree);
          for (const key of had) delete tree[key];
          return had.length > 0;
        });
      }
    },

    /** Retention: the open lists before the day go whole; each metric's counters of the days before its cut-off go. */
    async purge(
      openBeforeDay: number | undefined,
      countersBeforeDay: Readonly<Record<string, number | undefined>>,
    ): Promise<number> {
      if (openBeforeDay !== undefined) await lists.deleteMany({ kind: 'o', day: { $lt: openBeforeDay } });
      const cuts = Object.entries(countersBeforeDay).filter(
        (entry): entry is [string, number] => entry[1] !== undefined,
      );
      if (cuts.length === 0) return 0;
      const latest = Math.max(...cuts.map(([, day]) => day));
      let changed = 0;
      for (const doc of await docs
        .find({ kind: 'n', day: { $lt: latest } }, { projection: { _id: 1, day: 1 } })
        .toArray()) {
        await change<CounterTree>(doc._id, 'n', doc.day, (tree) => {
          const gone = cuts.filter(([metric, before]) => doc.day < before && metric in tree);
          for (const [metric] of gone) delete tree[metric];
          changed += gone.length;
          return gone.length > 0;
        });
      }
      return changed;
    },
  };
}

export type InsightCounters = ReturnType<typeof insightCounters>;
