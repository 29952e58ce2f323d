import type { Db } from 'mongodb';
import type { PresenceBeat, PresenceBoard } from '../../ports/presence.ts';
import { indexedCollection } from './indexes.ts';

const COLLECTION = 'studio_presence';

interface PresenceDoc {
  _id: string;
  name: string;
  dialog: string | null;
  at: number;
}

/** Who has the designer open, on MongoDB: one document per account, shared by every node. */
export async function mongoPresence(db: Db): Promise<PresenceBoard> {
  const beats = await indexedCollection<PresenceDoc>(db, COLLECTION, [{ key: { at: -1 }, name: 'at' }]);
  return {
    async beat(beat) {
      // Only a newer beat replaces the stored one; an older one arriving late changes nothing.
      await beats
        .updateOne(
          { _id: beat.accountId, at: { $lte: beat.at } },
          { $set: { name: beat.name, dialog: beat.dialog ?? null, at: beat.at } },
          { upsert: true },
        )
        .catch((error: unknown) => {
          // The upsert of a stale beat collides with the newer document's id: that is the "changes nothing".
          if ((error as { code?: number }).code !== 11000) throw error;
        });
    },
    async list(since) {
      const docs = await beats
        .find({ at: { $gte: since } })
        .sort({ at: -1, _id: 1 })
        .toArray();
      return docs.map((doc): PresenceBeat => ({
        accountId: doc._id,
        name: doc.name,
        ...(doc.dialog === null ? {} : { dialog: doc.dialog }),
        at: doc.at,
      }));
    },
    async purge(before) {
      return (await beats.deleteMany({ at: { $lt: before } })).deletedCount;
    },
  };
}
