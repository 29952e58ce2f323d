import type { Db } from 'mongodb';
import { DAY_MS, dayOf, type ConversationSummary } from '../../ports/insights.ts';
import { addDelta, counterId, type CounterTree, type InsightCounters } from './mongo-insight-counters.ts';
import { counterCollection } from './mongo-insight-docs.ts';

/**
 * Brings insights written by the earlier shape up to the present one, when the store opens:
 *   - each day's counters, kept before as nested fields (`c.<metric>.<a>.<b>`, keys base64url-encoded
 *     by encodeKey) in `n:<day>:<version>` documents of the `insights` collection, are added into the
 *     compact documents of `insight_counters` and the old document is deleted;
 *   - the open-conversation lists (new) are filled from the conversations of the last OPEN_REBUILD_DAYS
 *     days, so the drop-off leaves out the conversations going on at the upgrade.
 * A marker document (`u:1`) says it is done, so later starts read one document and stop. Two nodes
 * starting at once both may run it: each merged day records the old document's id (`m`) under the
 * new document's lock, so no day is added twice, and the open lists are only ever set.
 */
const MARKER = 'u:1';
const OPEN_REBUILD_DAYS = 3;

interface OldCounterDoc {
  _id: string;
  kind: 'n';
  day: number;
  c?: Record<string, Record<string, Record<string, number>>>;
}

const decodeKey = (key: string) => Buffer.from(key.slice(1), 'base64url').toString('utf8');

export async function upgradeInsights(
  db: Db,
  counters: InsightCounters,
  summariesOfDay: (day: number) => Promise<ConversationSummary[]>,
  keyOf: (s: ConversationSummary) => string,
  now = Date.now(),
): Promise<void> {
  const docs = counterCollection(db);
  if ((await docs.findOne({ _id: MARKER })) !== null) return;
  const old = db.collection<OldCounterDoc>('insights');
  // `kind` is compared as a string, which FerretDB filters in PostgreSQL; the large conversation buckets stay there.
  for (const doc of await old.find({ kind: 'n' }).toArray()) {
    const match = /^n:(-?\d+):(.+)$/.exec(doc._id);
    if (!match) continue;
    const day = Number(match[1]);
    const version = match[2] === '*' ? undefined : decodeKey(match[2]!);
    const id = counterId(day, version);
    await counters.change<Record<string, unknown>>(id, 'n', day, (tree) => {
      const merged = (tree[MERGED] ?? []) as string[];
      if (merged.includes(doc._id)) return false;
      for (const [metric, byA] of Object.entries(doc.c ?? {})) {
        for (const [a, byB] of Object.entries(byA))
          for (const [b, n] of Object.entries(byB))
            addDelta(tree as CounterTree, metric, decodeKey(a), decodeKey(b), n);
      }
      tree[MERGED] = [...merged, doc._id];
      return true;
    });
    await old.deleteOne({ _id: doc._id });
  }
  const today = dayOf(now);
  for (let day = today - OPEN_REBUILD_DAYS; day <= today; day++) {
    const recent = (await summariesOfDay(day)).filter((s) => s.lastAt >= now - OPEN_REBUILD_DAYS * DAY_MS);
    if (recent.length > 0) await counters.noteTurns(recent, keyOf);
  }
  await docs.updateOne({ _id: MARKER }, { $set: { kind: 'u', day: today, t: '{}' } }, { upsert: true });
}

/** Where a merged day notes the old documents it took (read as no metric: METRICS never names it). */
export const MERGED = '#merged';
