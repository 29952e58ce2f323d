import type { Db } from 'mongodb';
import { METRICS, type CountDelta, type DayRange, type Metric } from '../../ports/insights.ts';
import type { CounterRow } from '../common/insights-common.ts';
import type { KeyLocks } from './key-lock.ts';
import { counterCollection, lockedChange } from './mongo-insight-docs.ts';
import { insightOpenLists } from './mongo-insight-open.ts';

/**
 * The insights counters on MongoDB, in a small collection of their own, each document one compact
 * JSON text: in `insight_counters`, `n:<day>:<version>` and `n:<day>:*` (every version), `t` =
 * `{ metric@channel: { a: { b: n } } }` (treeKey: a bare `metric` holds the counts written before
 * channels were counted). The open-conversation lists are beside them (mongo-insight-open.ts),
 * written the same way (mongo-insight-docs.ts).
 */

/** treeKey(metric, channel) → a → b → n, as stored in an `n:` document's text. */
export type CounterTree = Record<string, Record<string, Record<string, number>>>;

export const counterId = (day: number, version: string | undefined) =>
  `n:${day}:${version === undefined ? '*' : encodeVersion(version)}`;

/** A version as part of an id: `*` means every version, so a version named `*` is written `%2A`. */
function encodeVersion(version: string): string {
  return encodeURIComponent(version).replaceAll('*', '%2A');
}

/** A metric's key in a counter tree: `metric@channel`, or the bare metric for the counts of no channel (''). */
export const treeKey = (metric: string, channel: string) => (channel === '' ? metric : `${metric}@${channel}`);

/** The metric and the channel of a tree key (a metric name never holds '@'). */
export function splitTreeKey(key: string): [metric: string, channel: string] {
  const at = key.indexOf('@');
  return at === -1 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
}

export function addDelta(tree: CounterTree, metric: string, a: string, b: string, n: number): void {
  const byA = (tree[metric] ??= {});
  const byB = (byA[a] ??= {});
  byB[b] = (byB[b] ?? 0) + n;
}

export function insightCounters(db: Db, locks: KeyLocks) {
  const docs = counterCollection(db);
  const change = lockedChange(db, locks);
  const openLists = insightOpenLists(db, change);

  return {
    change,
    noteTurns: openLists.noteTurns,
    open: openLists.open,
    forget: openLists.forget,

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
            for (const d of deltas) addDelta(tree, treeKey(d.metric, d.channel ?? ''), d.a ?? '', d.b ?? '', d.n);
            return true;
          },
          batchId,
        );
      }
    },

    /** The counter rows of the range's days (read by `_id`) for the metrics asked for, of one channel or all. */
    async rows(range: DayRange, metrics: readonly Metric[]): Promise<CounterRow[]> {
      const wanted = new Set<string>(metrics.filter((m) => (METRICS as readonly string[]).includes(m)));
      const days = Array.from({ length: Math.max(0, range.toDay - range.fromDay + 1) }, (_, i) => range.fromDay + i);
      const found = await Promise.all(days.map((day) => docs.findOne({ _id: counterId(day, range.version) })));
      const rows: CounterRow[] = [];
      for (const doc of found) {
        if (!doc) continue;
        for (const [key, byA] of Object.entries(JSON.parse(doc.t) as CounterTree)) {
          const [metric, channel] = splitTreeKey(key);
          if (!wanted.has(metric) || (range.channel !== undefined && channel !== range.channel)) continue;
          for (const [a, byB] of Object.entries(byA))
            for (const [b, n] of Object.entries(byB)) rows.push([doc.day, metric as Metric, channel, a, b, n]);
        }
      }
      return rows;
    },

    /** Retention: the open lists before the day go whole; each metric's counters (every channel's) of the days before its cut-off go. */
    async purge(
      openBeforeDay: number | undefined,
      countersBeforeDay: Readonly<Record<string, number | undefined>>,
    ): Promise<number> {
      if (openBeforeDay !== undefined) await openLists.purge(openBeforeDay);
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
          const gone = Object.keys(tree).filter((key) =>
            cuts.some(([metric, before]) => doc.day < before && splitTreeKey(key)[0] === metric),
          );
          for (const key of gone) delete tree[key];
          changed += gone.length;
          return gone.length > 0;
        });
      }
      return changed;
    },
  };
}

export type InsightCounters = ReturnType<typeof insightCounters>;
