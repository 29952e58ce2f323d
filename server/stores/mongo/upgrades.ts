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
  await markHeldOutboxes(db);
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

/**
 * Users stored before `outboxHeld` whose last turn's outbox still waits (a crash left it) get the flag
 * the sweep looks for (turn-outbox.ts). Through the by_outbox index on MongoDB; on FerretDB it reads
 * the users once at start-up, as the sweep did every two seconds before.
 */
async function markHeldOutboxes(db: Db): Promise<void> {
  await db
    .collection<{ _id: string; outboxAt?: number | null; outboxHeld?: boolean }>(COLLECTIONS.users)
    .updateMany({ outboxAt: { $gte: 0 }, outboxHeld: { $ne: true } }, { $set: { outboxHeld: true } });
}
