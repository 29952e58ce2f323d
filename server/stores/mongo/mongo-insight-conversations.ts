import { Binary, type Db } from 'mongodb';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { ConversationSummary } from '../../ports/insights.ts';
import type { KeyLocks } from './key-lock.ts';

/**
 * The conversation summaries on MongoDB, in `insight_conversations`: for each day (of the start) and
 * each of BUCKETS buckets (by user), one document `c:<day>:<bucket>` = `{ kind: 'c', day, z }`, `z`
 * the bucket's summaries (`{ conversationKey: summary }`) as JSON, deflated, in a binary field.
 *
 * Why this shape (measured on FerretDB 1.24 on PostgreSQL, the test server, a day of 3,333
 * conversations): FerretDB reads no index, so a query costs a scan of the collection, and it then
 * turns each field of each returned document into BSON one at a time. The earlier shape (each
 * summary a nested field of the bucket) cost ~0.35 s a day in that conversion; one document per
 * conversation cost ~0.5 s; the deflated bucket is four fields, ~80 KB a day, read in ~40 ms with
 * one query (`find({ day })`), inflated and parsed in Node in a few more. On MongoDB that query is
 * answered from the `day` index, each write by `_id`; deflating costs a writer a few ms a flush.
 * A deflated text can't take `$set`, so a write reads, changes and writes back the bucket under its
 * key lock (key-lock.ts), which also keeps two nodes from losing each other's summaries (FerretDB's
 * updates are not atomic).
 * Size: ~550 bytes a summary before deflating; at 8 buckets a day a bucket stays far below
 * MongoDB's 16 MB document limit up to about a million conversations a day.
 */
export const CONVERSATIONS_COLLECTION = 'insight_conversations';
export const BUCKETS = 8;

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

export interface ConversationBucketDoc {
  _id: string;
  kind: 'c';
  day: number;
  z: Binary;
}

export type BucketEntries = Record<string, ConversationSummary>;

/** Which of the day's BUCKETS documents holds a user's conversations (bench/insights-child.ts seeds them the same way). */
export function bucketOf(userId: string): number {
  let hash = 0;
  for (let i = 0; i < userId.length; i++) hash = (hash * 31 + userId.charCodeAt(i)) | 0;
  return Math.abs(hash) % BUCKETS;
}

export const bucketId = (day: number, bucket: number) => `c:${day}:${bucket}`;

export async function packBucket(entries: BucketEntries): Promise<Binary> {
  return new Binary(await deflate(Buffer.from(JSON.stringify(entries), 'utf8')));
}

export async function unpackBucket(z: Binary | undefined): Promise<BucketEntries> {
  if (!z) return {};
  return JSON.parse((await inflate(z.buffer)).toString('utf8')) as BucketEntries;
}

export function conversationBuckets(db: Db, locks: KeyLocks) {
  const docs = db.collection<ConversationBucketDoc>(CONVERSATIONS_COLLECTION);

  /** Reads the bucket, changes it, writes it back (deletes it when empty), under its lock. */
  const change = (id: string, day: number, edit: (entries: BucketEntries) => boolean) =>
    locks.withLock(`insights:${id}`, async () => {
      const doc = await docs.findOne({ _id: id });
      const entries = await unpackBucket(doc?.z);
      if (!edit(entries)) return;
      if (Object.keys(entries).length === 0) await docs.deleteOne({ _id: id });
      else await docs.replaceOne({ _id: id }, { kind: 'c', day, z: await packBucket(entries) }, { upsert: true });
    });

  return {
    change,

    /** Every summary of conversations that started on the day: one query. */
    async day(day: number): Promise<ConversationSummary[]> {
      const found = await docs.find({ day }).toArray();
      const unpacked = await Promise.all(found.map((doc) => unpackBucket(doc.z)));
      return unpacked.flatMap((entries) => Object.values(entries));
    },

    /** The bucket's summaries under the given keys (a user's, for the transcript view and erasure). */
    async pick(id: string, keys: readonly string[]): Promise<ConversationSummary[]> {
      const entries = await unpackBucket((await docs.findOne({ _id: id }))?.z);
      return keys.flatMap((key) => (entries[key] ? [entries[key]] : []));
    },

    /** Retention: the buckets of days before the cut-off go whole. */
    async purge(beforeDay: number): Promise<number> {
      return (await docs.deleteMany({ kind: 'c', day: { $lt: beforeDay } })).deletedCount;
    },
  };
}

export type ConversationBuckets = ReturnType<typeof conversationBuckets>;
