import type { Db } from 'mongodb';
import { COLLECTIONS } from './mongo-common.ts';

/** What of a user document the upgrade reads and writes; listedAt missing (or null) on older documents. */
interface ListedUser {
  _id: string;
  lastMessageAt: number | null;
  createdAt: number;
  listedAt?: number | null;
}

/** Documents fixed per write: one round trip each batch, however many users an old database holds. */
const BATCH = 500;

/**
 * Brings documents written by older versions up to what this version reads, at start-up
 * (after the indexes): users stored before `listedAt` existed get it (their last message,
 * else their creation), so the userData export lists them. Only documents still without
 * it are read, through the index, and touched, each on the condition that its last message did not change meanwhile
 * (a node of this version writing it sets `listedAt` itself): a second start does nothing.
 */
export async function upgradeDocuments(db: Db): Promise<void> {
  const users = db.collection<ListedUser>(COLLECTIONS.users);
  for (;;) {
    const docs = await users
      // `null` matches a missing field and, unlike $exists, is answered from the by_listed index (made just before).
      .find({ listedAt: null }, { projection: { _id: 1, lastMessageAt: 1, createdAt: 1 } })
      .limit(BATCH)
      .toArray();
    if (docs.length === 0) return;
    await users.bulkWrite(
      docs.map((doc) => ({
        updateOne: {
          filter: { _id: doc._id, listedAt: null, lastMessageAt: doc.lastMessageAt },
          update: { $set: { listedAt: doc.lastMessageAt ?? doc.createdAt } },
        },
      })),
      { ordered: false },
    );
    if (docs.length < BATCH) return;
  }
}
