import type { Database } from './database.ts';
import type { SetupLink } from '../../ports/accounts.ts';
import type { SetupLinks } from '../common/account-parts.ts';
import { columns, insertInto, selectFrom, table } from './table.ts';

const LINKS = table<SetupLink>('studio_setup_links', {
  tokenHash: 'token_hash',
  role: 'role',
  email: 'email',
  createdBy: 'created_by',
  createdAt: 'created_at',
  expiresAt: 'expires_at',
});

/** The studio's setup links (migration 9): an invitation is taken once, by deleting it. */
export function sqliteSetupLinks(db: Database): SetupLinks {
  const insertLink = db.prepare(insertInto(LINKS).replace('INSERT', 'INSERT OR REPLACE'));
  const linkByHash = db.prepare<[string, number], SetupLink>(
    `${selectFrom(LINKS)} WHERE token_hash = ? AND expires_at > ?`,
  );
  // One statement: of two concurrent takers only one gets the row back.
  const takeLink = db.prepare<[string], SetupLink>(
    `DELETE FROM ${LINKS.name} WHERE token_hash = ? RETURNING ${columns(LINKS)}`,
  );
  const liveLinks = db.prepare<[number], SetupLink>(
    `${selectFrom(LINKS)} WHERE expires_at > ? ORDER BY created_at DESC`,
  );
  const removeLink = db.prepare<[string]>(`DELETE FROM ${LINKS.name} WHERE token_hash = ?`);

  return {
    async saveSetupLink(link) {
      insertLink.run(link);
    },
    async findSetupLink(tokenHash, now) {
      return linkByHash.get(tokenHash, now) ?? null;
    },
    async takeSetupLink(tokenHash, now) {
      const link = takeLink.get(tokenHash);
      return link && link.expiresAt > now ? link : null;
    },
    async listSetupLinks(now) {
      return liveLinks.all(now);
    },
    async deleteSetupLink(tokenHash) {
      return removeLink.run(tokenHash).changes === 1;
    },
  };
}
