import type { Database } from './database.ts';
import type { Draft } from '../../ports/versions.ts';
import type { Drafts } from '../common/version-parts.ts';
import { selectFrom, table, upsertInto } from './table.ts';

const DRAFTS = table<Draft>('studio_drafts', {
  accountId: 'account_id',
  baseVersionId: 'base_version_id',
  definitionText: 'definition',
  revision: 'revision',
  updatedAt: 'updated_at',
});

/** Each account's draft, written in one immediate transaction when its revision is the one expected. */
export function sqliteDrafts(db: Database): Drafts {
  const draftOf = db.prepare<[string], Draft>(`${selectFrom(DRAFTS)} WHERE account_id = ?`);
  const upsertDraft = db.prepare(upsertInto(DRAFTS, 'accountId'));

  const writeDraft = db.transaction(
    (accountId: string, write: Parameters<Drafts['writeDraft']>[1], expectedRevision: number | null) => {
      const current = draftOf.get(accountId) ?? null;
      if ((current?.revision ?? null) !== expectedRevision) return { status: 'conflict' as const, draft: current };
      const draft: Draft = {
        accountId,
        baseVersionId: write.baseVersionId,
        definitionText: write.definitionText,
        revision: (current?.revision ?? 0) + 1,
        updatedAt: write.updatedAt,
      };
      upsertDraft.run(draft);
      return { status: 'saved' as const, draft };
    },
  );

  return {
    async readDraft(accountId) {
      return draftOf.get(accountId) ?? null;
    },
    async writeDraft(accountId, write, expectedRevision) {
      return writeDraft.immediate(accountId, write, expectedRevision);
    },
  };
}
