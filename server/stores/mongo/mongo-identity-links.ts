import type { Db } from 'mongodb';
import type { ChannelAddress, IdentityLinks, LinkedPerson } from '../../ports/identity-links.ts';
import { personFromAddresses } from '../common/linked-person.ts';
import { ensureCollectionIndexes } from './indexes.ts';
import { isDuplicateKey } from './mongo-common.ts';

const LINKS = 'identity_links';
const CODES = 'link_codes';
const MISSES = 'link_misses';

interface LinkDoc {
  /** The address's user id: an address belongs to one person, which the unique `_id` holds. */
  _id: string;
  channelId: string;
  personId: string;
  linkedAt: number;
  usedAt: number;
}

interface CodeDoc {
  /** The code's hash. */
  _id: string;
  issuerUserId: string;
  issuerChannelId: string;
  expiresAt: number;
}

interface MissDoc {
  userId: string;
  at: number;
}

/**
 * Linked addresses, link codes and wrong tries on MongoDB. No transaction (FerretDB has none): an
 * address joins a person by an insert under its unique `_id`, so of two links racing for one
 * address one wins and the other hears `taken`; a code is taken by the one caller whose delete removes it.
 */
export async function mongoIdentityLinks(db: Db): Promise<IdentityLinks> {
  await ensureCollectionIndexes(db, {
    [LINKS]: [{ key: { personId: 1 }, name: 'personId' }],
    [CODES]: [
      { key: { issuerUserId: 1 }, name: 'issuerUserId' },
      { key: { expiresAt: 1 }, name: 'expiresAt' },
    ],
    [MISSES]: [{ key: { userId: 1, at: 1 }, name: 'userId_at' }],
  });
  const links = db.collection<LinkDoc>(LINKS);
  const codes = db.collection<CodeDoc>(CODES);
  const misses = db.collection<MissDoc>(MISSES);

  const personOf = async (userId: string): Promise<LinkedPerson | null> => {
    const own = await links.findOne({ _id: userId });
    if (!own) return null;
    const rows = await links.find({ personId: own.personId }).toArray();
    return personFromAddresses(
      own.personId,
      rows.map((row) => ({ userId: row._id, channelId: row.channelId, linkedAt: row.linkedAt, usedAt: row.usedAt })),
    );
  };
  /** Joins the address to the person; false when it already belongs to another. */
  const join = async (address: ChannelAddress, personId: string, now: number): Promise<boolean> => {
    try {
      await links.insertOne({
        _id: address.userId,
        channelId: address.channelId,
        personId,
        linkedAt: now,
        usedAt: now,
      });
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await links.findOne({ _id: address.userId }))?.personId === personId;
    }
  };
  return {
    personOf,
    async personsOf(userIds) {
      const found = new Map<string, LinkedPerson>();
      for (const userId of userIds) {
        const person = await personOf(userId);
        if (person) found.set(userId, person);
      }
      return found;
    },
    async link(primary, other, now) {
      const personId = (await links.findOne({ _id: primary.userId }))?.personId ?? primary.userId;
      const existing = await links.findOne({ _id: other.userId });
      if (existing && existing.personId !== personId) return 'taken';
      if (!(await join(primary, personId, now))) return 'taken';
      if (!(await join(other, personId, now))) return 'taken';
      return (await personOf(personId))!;
    },
    async used(personId, channelId, now) {
      await links.updateMany({ personId, channelId }, { $set: { usedAt: now } });
    },
    async forget(userId) {
      const person = await personOf(userId);
      const addresses = person?.addresses ?? [];
      const ids = [...new Set([userId, ...addresses.map((a) => a.userId)])];
      if (person) await links.deleteMany({ personId: person.personId });
      await codes.deleteMany({ issuerUserId: { $in: ids } });
      await misses.deleteMany({ userId: { $in: ids } });
      return addresses.map(({ channelId, userId: id }) => ({ channelId, userId: id }));
    },
    async issueCode(code) {
      await codes.deleteMany({ issuerUserId: code.issuer.userId });
      await codes.replaceOne(
        { _id: code.codeHash },
        { issuerUserId: code.issuer.userId, issuerChannelId: code.issuer.channelId, expiresAt: code.expiresAt },
        { upsert: true },
      );
    },
    async takeCode(codeHash, now) {
      // Read, then delete: only the caller whose delete removed the document has it (FerretDB's
      // findOneAndDelete hands one document to every caller that races for it).
      const doc = await codes.findOne({ _id: codeHash });
      if (!doc || (await codes.deleteOne({ _id: codeHash })).deletedCount !== 1 || doc.expiresAt <= now) return null;
      return {
        codeHash,
        issuer: { userId: doc.issuerUserId, channelId: doc.issuerChannelId },
        expiresAt: doc.expiresAt,
      };
    },
    async recordMiss(userId, at) {
      await misses.insertOne({ userId, at });
    },
    async missesSince(userId, since) {
      return misses.countDocuments({ userId, at: { $gte: since } });
    },
    async purge(before) {
      const gone = await codes.deleteMany({ expiresAt: { $lt: before } });
      const tries = await misses.deleteMany({ at: { $lt: before } });
      return gone.deletedCount + tries.deletedCount;
    },
  };
}
