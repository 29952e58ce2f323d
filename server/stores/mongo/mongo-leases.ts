import { ObjectId, type Db } from 'mongodb';
import type { Leases } from '../../ports/leases.ts';
import { COLLECTIONS, isDuplicateKey } from './mongo-common.ts';

interface LeaseDoc {
  /** The holding's token: a fresh id per acquisition, so a release or renewal never touches a later holder. */
  _id: ObjectId;
  key: string;
  owner: string;
  until: number;
}

/*
 * Same scheme as key-lock.ts, for the reasons given there: on FerretDB 1.x a
 * conditional update is "read, then write back by _id", so a filter such as
 * {key, until <= now} would let two takers both believe they won. What is
 * atomic on MongoDB and FerretDB alike is an insert under a unique index (on
 * `key`) and a delete or update by _id. So: acquire inserts; a run-out holder
 * is removed by its own _id (never by key, which could remove a newer holder)
 * before one more insert; renew and release address the holding's _id.
 * MongoDB features used: insertOne with a unique index (duplicate key 11000),
 * deleteOne/updateOne by _id. No transactions, no findAndModify.
 */
export function mongoLeases(db: Db): Leases {
  const leases = db.collection<LeaseDoc>(COLLECTIONS.leases);
  const tokenId = (token: string) => (/^[0-9a-f]{24}$/.test(token) ? ObjectId.createFromHexString(token) : null);

  return {
    async acquireLease(key, owner, ttlMs, now) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const lease: LeaseDoc = { _id: new ObjectId(), key, owner, until: now + ttlMs };
        try {
          await leases.insertOne(lease);
          return { token: lease._id.toHexString(), until: lease.until };
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
        const holder = await leases.findOne({ key });
        if (holder !== null && holder.until > now) return null;
        if (holder !== null) await leases.deleteOne({ _id: holder._id });
      }
      return null;
    },

    async renewLease(key, token, ttlMs, now) {
      const id = tokenId(token);
      if (id === null) return false;
      const result = await leases.updateOne({ _id: id, key }, { $set: { until: now + ttlMs } });
      return result.matchedCount === 1;
    },

    async releaseLease(key, token) {
      const id = tokenId(token);
      if (id !== null) await leases.deleteOne({ _id: id, key });
    },
  };
}
