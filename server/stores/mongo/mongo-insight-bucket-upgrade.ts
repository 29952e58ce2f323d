import type { Db } from 'mongodb';
import { dayOf, type ConversationSummary } from '../../ports/insights.ts';
import { bucketOf, type ConversationBuckets } from './mongo-insight-conversations.ts';
import type { InsightCounters } from './mongo-insight-counters.ts';
import { counterCollection, OPEN_COLLECTION } from './mongo-insight-docs.ts';
import { openId, type OpenTree } from './mongo-insight-open.ts';
import { upgradeInsights } from './mongo-insight-upgrade.ts';

/**
 * Brings the conversation buckets and open lists of earlier versions to the present shape when the
 * store opens, after which the earlier upgrade (mongo-insight-upgrade.ts, counters) runs on them:
 *   - each `c:<day>:<bucket>` document of the `insights` collection (each summary a JSON string
 *     under its key) is merged into the deflated bucket of the same id in `insight_conversations`
 *     (mongo-insight-conversations.ts), then deleted;
 *   - each day's single open list `o:<day>` in `insight_open` is split into its `o:<day>:<bucket>`
 *     lists (the bucket of the user the key names), then deleted.
 * Merging keeps, for a conversation both sides hold, the summary with the later last turn, and runs
 * under each new document's lock: two nodes starting at once, or a start after one cut short, end
 * with the same documents. A marker (`u:2` in `insight_counters`) says it is done: later starts read
 * one document and stop.
 */
const MARKER = 'u:2';

interface OldBucketDoc {
  _id: string;
  kind: 'c';
  day: number;
  c?: Record<string, string>;
}

/** The user a conversation key (mongo-insights.ts conversationKey: base64url of `<userId>\0<startedAt>`) names. */
const userOfKey = (key: string) => Buffer.from(key.slice(1), 'base64url').toString('utf8').split('\u0000')[0] ?? '';

export async function upgradeBuckets(
  db: Db,
  buckets: ConversationBuckets,
  counters: InsightCounters,
  keyOf: (s: ConversationSummary) => string,
  now = Date.now(),
): Promise<void> {
  const markers = counterCollection(db);
  if ((await markers.findOne({ _id: MARKER })) !== null) return;

  // One old bucket at a time: each may hold megabytes. `kind` is compared as a string, which FerretDB filters in PostgreSQL.
  const old = db.collection<OldBucketDoc>('insights');
  for await (const doc of old.find({ kind: 'c' }).batchSize(1)) {
    if (!/^c:-?\d+:\d+$/.test(doc._id)) continue;
    await buckets.change(doc._id, doc.day, (entries) => {
      for (const [key, text] of Object.entries(doc.c ?? {})) {
        const summary = JSON.parse(text) as ConversationSummary;
        const known = entries[key];
        if (!known || known.lastAt < summary.lastAt) entries[key] = summary;
      }
      return true;
    });
    await old.deleteOne({ _id: doc._id });
  }

  // The counters (and, on data older still, the open lists rebuilt from the moved buckets).
  await upgradeInsights(db, counters, buckets.day, keyOf, now);

  const lists = counterCollection(db, OPEN_COLLECTION);
  for (const doc of await lists.find({ kind: 'o' }).toArray()) {
    if (!/^o:-?\d+$/.test(doc._id)) continue;
    const byBucket = new Map<number, OpenTree>();
    for (const [key, entry] of Object.entries(JSON.parse(doc.t) as OpenTree)) {
      const bucket = bucketOf(userOfKey(key));
      const moved = byBucket.get(bucket) ?? {};
      moved[key] = entry;
      byBucket.set(bucket, moved);
    }
    for (const [bucket, moved] of byBucket) {
      await counters.change<OpenTree>(openId(doc.day, bucket), 'o', doc.day, (tree) => {
        for (const [key, entry] of Object.entries(moved)) {
          const known = tree[key];
          if (!known || known[1] < entry[1]) tree[key] = entry;
        }
        return true;
      });
    }
    await lists.deleteOne({ _id: doc._id });
  }
  await markers.updateOne({ _id: MARKER }, { $set: { kind: 'u', day: dayOf(now), t: '{}' } }, { upsert: true });
}
