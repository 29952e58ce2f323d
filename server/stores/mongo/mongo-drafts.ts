import type { Db } from 'mongodb';
import type { Draft } from '../../ports/versions.ts';
import type { Drafts } from '../common/version-parts.ts';
import type { KeyLocks } from './key-lock.ts';

type DraftDoc = Omit<Draft, 'accountId' | 'definitionText'> & { _id: string; definition: string };

const toDraft = ({ _id, definition, ...rest }: DraftDoc): Draft => ({
  accountId: _id,
  definitionText: definition,
  ...rest,
});

/**
 * Each account's draft, by account id. FerretDB 1.x has no conditional updates (see key-lock.ts): a
 * draft is read, checked and written under its account's lock. MongoDB features used: replaceOne with upsert.
 */
export function mongoDrafts(db: Db, locks: KeyLocks): Drafts {
  const drafts = db.collection<DraftDoc>('studio_drafts');

  return {
    async readDraft(accountId) {
      const doc = await drafts.findOne({ _id: accountId });
      return doc ? toDraft(doc) : null;
    },
    async writeDraft(accountId, write, expectedRevision) {
      return locks.withLock(`studio:draft:${accountId}`, async () => {
        const current = await drafts.findOne({ _id: accountId });
        if ((current?.revision ?? null) !== expectedRevision)
          return { status: 'conflict', draft: current ? toDraft(current) : null };
        const doc: DraftDoc = {
          _id: accountId,
          baseVersionId: write.baseVersionId,
          definition: write.definitionText,
          revision: (current?.revision ?? 0) + 1,
          updatedAt: write.updatedAt,
        };
        await drafts.replaceOne({ _id: accountId }, doc, { upsert: true });
        return { status: 'saved', draft: toDraft(doc) };
      });
    },
  };
}
