import type { Db } from 'mongodb';
import { dayOf, type ConversationSummary } from '../../ports/insights.ts';
import { bucketId, bucketOf, type ConversationBuckets } from './mongo-insight-conversations.ts';

interface UserIndexDoc {
  _id: string;
  /** conversation key → `c:<day>:<bucket>` document id. */
  c?: Record<string, string>;
}

/**
 * In `insight_users`, `<userId>`: where that user's conversations are (their day buckets), for the
 * transcript view and erasure, which then read a few buckets instead of every day's.
 */
export function insightUsers(
  db: Db,
  buckets: ConversationBuckets,
  keyOf: (s: { userId: string; startedAt: number }) => string,
) {
  const users = db.collection<UserIndexDoc>('insight_users');

  /** The user's conversation keys, by the bucket document that holds them. */
  const keysByBucket = async (userId: string): Promise<Map<string, string[]>> => {
    const index = await users.findOne({ _id: userId });
    const byBucket = new Map<string, string[]>();
    for (const [key, id] of Object.entries(index?.c ?? {})) byBucket.set(id, [...(byBucket.get(id) ?? []), key]);
    return byBucket;
  };

  return {
    keysByBucket,

    /** Notes where each conversation is: one round trip for the batch's users, each naming only its own conversation's field. */
    async note(conversations: readonly ConversationSummary[]): Promise<void> {
      if (conversations.length === 0) return;
      await users.bulkWrite(
        conversations.map((summary) => ({
          updateOne: {
            filter: { _id: summary.userId },
            update: { $set: { [`c.${keyOf(summary)}`]: bucketId(dayOf(summary.startedAt), bucketOf(summary.userId)) } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    },

    /** One user's conversations (unordered), from the day buckets their index names. */
    async summariesOf(userId: string): Promise<ConversationSummary[]> {
      const byBucket = await keysByBucket(userId);
      return (await Promise.all([...byBucket].map(([id, keys]) => buckets.pick(id, keys)))).flat();
    },

    async forget(userId: string): Promise<void> {
      await users.deleteOne({ _id: userId });
    },
  };
}
