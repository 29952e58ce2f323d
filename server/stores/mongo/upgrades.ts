import type { Db } from 'mongodb';
import { COLLECTIONS } from './mongo-common.ts';
import type { UserDoc } from './mongo-users.ts';

/** Documents fixed per write: one round trip each batch, however many users an old database holds. */
const BATCH = 500;

/**
 * Brings documents written by older versions up to what this version reads, at start-up
 * (after the indexes): users stored before `listedAt` existed get it (their last message,
 * else their creation), so the userData export lists them. Only documents still without
 * it are touched, each on the condition that its last message did not change meanwhile
 * (a node of this version writing it sets `listedAt` itself): a second start does nothing.
 */
export async function upgradeDocuments(db: Db): Promise<void> {
  const users = db.collection<UserDoc>(COLLECTIONS.users);
  for (;;) {
    const docs = await users
      .find({ listedAt: { $exists: false } }, { projection: { _id: 1, lastMessageAt: 1, createdAt: 1 } })
      .limit(BATCH)
      .toArray();
    if (docs.length === 0) return;
    await users.bulkWrite(
      docs.map((doc) => ({
        updateOne: {
          filter: { _id: doc._id, listedAt: { $exists: false }, lastMessageAt: doc.lastMessageAt },
          update: { $set: { listedAt: doc.lastMessageAt ?? doc.createdAt } },
        },
      })),
      { ordered: false },
    );
    if (docs.length < BATCH) return;
  }
}
