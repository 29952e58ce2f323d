import type { Db } from 'mongodb';
import type { SetupLink } from '../../ports/accounts.ts';
import type { Role } from '../../ports/roles.ts';
import type { SetupLinks } from '../common/account-parts.ts';
import { indexedCollection } from './indexes.ts';

const LINKS = 'studio_setup_links';

interface LinkDoc {
  _id: string;
  role: Role;
  email: string | null;
  createdBy: string | null;
  createdAt: number;
  expiresAt: number;
}

const toLink = ({ _id, ...rest }: LinkDoc): SetupLink => ({ tokenHash: _id, ...rest });

/** The studio's setup links, by token hash: a link is taken by deleting it by _id, so of two takers only one sees deletedCount 1. */
export async function mongoSetupLinks(db: Db): Promise<SetupLinks> {
  const links = await indexedCollection<LinkDoc>(db, LINKS, [{ key: { createdAt: 1 }, name: 'created' }]);

  return {
    async saveSetupLink(link) {
      const { tokenHash, ...rest } = link;
      await links.replaceOne({ _id: tokenHash }, rest, { upsert: true });
    },
    async findSetupLink(tokenHash, now) {
      const doc = await links.findOne({ _id: tokenHash });
      return doc && doc.expiresAt > now ? toLink(doc) : null;
    },
    async takeSetupLink(tokenHash, now) {
      const doc = await links.findOne({ _id: tokenHash });
      if (!doc) return null;
      const taken = (await links.deleteOne({ _id: tokenHash })).deletedCount === 1;
      return taken && doc.expiresAt > now ? toLink(doc) : null;
    },
    async listSetupLinks(now) {
      return (
        await links
          .find({ expiresAt: { $gt: now } })
          .sort({ createdAt: -1 })
          .toArray()
      ).map(toLink);
    },
    async deleteSetupLink(tokenHash) {
      return (await links.deleteOne({ _id: tokenHash })).deletedCount === 1;
    },
  };
}
