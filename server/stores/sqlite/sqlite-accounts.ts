import type { Database } from './database.ts';
import type { Account, Accounts, ApiToken, SetupLink } from '../../ports/accounts.ts';
import type { Role } from '../../ports/roles.ts';

interface AccountRow {
  id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string | null;
  oidc_subject: string | null;
  created_at: number;
  updated_at: number;
}
interface LinkRow {
  token_hash: string;
  role: string;
  email: string | null;
  created_by: string | null;
  created_at: number;
  expires_at: number;
}
interface TokenRow {
  id: string;
  account_id: string;
  name: string;
  token_hash: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role as Role,
  passwordHash: row.password_hash,
  oidcSubject: row.oidc_subject,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
const toLink = (row: LinkRow): SetupLink => ({
  tokenHash: row.token_hash,
  role: row.role as Role,
  email: row.email,
  createdBy: row.created_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});
const toToken = (row: TokenRow): ApiToken => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  tokenHash: row.token_hash,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/** The accounts room on the embedded store (tables of migration 9). */
export function sqliteAccounts(db: Database): Accounts {
  const insertAccount = db.prepare(
    `INSERT INTO studio_accounts (id, email, name, role, password_hash, oidc_subject, created_at, updated_at)
     VALUES (@id, @email, @name, @role, @passwordHash, @oidcSubject, @createdAt, @createdAt)
     ON CONFLICT (email) DO NOTHING`,
  );
  const byId = db.prepare<[string], AccountRow>('SELECT * FROM studio_accounts WHERE id = ?');
  const byEmail = db.prepare<[string], AccountRow>('SELECT * FROM studio_accounts WHERE email = ?');
  const bySubject = db.prepare<[string], AccountRow>('SELECT * FROM studio_accounts WHERE oidc_subject = ?');
  const all = db.prepare<[], AccountRow>('SELECT * FROM studio_accounts ORDER BY created_at, id');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM studio_accounts');
  const countRole = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM studio_accounts WHERE role = ?');
  const removeAccount = db.prepare<[string]>('DELETE FROM studio_accounts WHERE id = ?');
  const removeTokensOf = db.prepare<[string]>('DELETE FROM studio_tokens WHERE account_id = ?');
  const removeAccountWithTokens = db.transaction((id: string) => {
    removeTokensOf.run(id);
    return removeAccount.run(id).changes === 1;
  });

  const insertLink = db.prepare(
    `INSERT OR REPLACE INTO studio_setup_links (token_hash, role, email, created_by, created_at, expires_at)
     VALUES (@tokenHash, @role, @email, @createdBy, @createdAt, @expiresAt)`,
  );
  const linkByHash = db.prepare<[string, number], LinkRow>(
    'SELECT * FROM studio_setup_links WHERE token_hash = ? AND expires_at > ?',
  );
  // One statement: of two concurrent takers only one gets the row back.
  const takeLink = db.prepare<[string], LinkRow>('DELETE FROM studio_setup_links WHERE token_hash = ? RETURNING *');
  const liveLinks = db.prepare<[number], LinkRow>(
    'SELECT * FROM studio_setup_links WHERE expires_at > ? ORDER BY created_at DESC',
  );
  const removeLink = db.prepare<[string]>('DELETE FROM studio_setup_links WHERE token_hash = ?');

  const insertToken = db.prepare(
    `INSERT INTO studio_tokens (id, account_id, name, token_hash, created_at, expires_at, last_used_at)
     VALUES (@id, @accountId, @name, @tokenHash, @createdAt, @expiresAt, @lastUsedAt)`,
  );
  const tokenByHash = db.prepare<[string], TokenRow>('SELECT * FROM studio_tokens WHERE token_hash = ?');
  const tokensOf = db.prepare<[string], TokenRow>(
    'SELECT * FROM studio_tokens WHERE account_id = ? ORDER BY created_at DESC, id DESC',
  );
  const removeToken = db.prepare<[string, string]>('DELETE FROM studio_tokens WHERE account_id = ? AND id = ?');
  const touchToken = db.prepare<[number, string]>('UPDATE studio_tokens SET last_used_at = ? WHERE id = ?');

  return {
    async createAccount(account) {
      const inserted = insertAccount.run({
        ...account,
        email: account.email.toLowerCase(),
        oidcSubject: account.oidcSubject ?? null,
      });
      if (inserted.changes === 0) return { ok: false, reason: 'email_taken' };
      return { ok: true, account: toAccount(byId.get(account.id)!) };
    },
    async accountById(id) {
      const row = byId.get(id);
      return row ? toAccount(row) : null;
    },
    async accountByEmail(email) {
      const row = byEmail.get(email.toLowerCase());
      return row ? toAccount(row) : null;
    },
    async accountByOidcSubject(subject) {
      const row = bySubject.get(subject);
      return row ? toAccount(row) : null;
    },
    async listAccounts() {
      return all.all().map(toAccount);
    },
    async updateAccount(id, change) {
      const sets: string[] = ['updated_at = @updatedAt'];
      if (change.name !== undefined) sets.push('name = @name');
      if (change.role !== undefined) sets.push('role = @role');
      if (change.passwordHash !== undefined) sets.push('password_hash = @passwordHash');
      if (change.oidcSubject !== undefined) sets.push('oidc_subject = @oidcSubject');
      const result = db.prepare(`UPDATE studio_accounts SET ${sets.join(', ')} WHERE id = @id`).run({
        id,
        updatedAt: change.updatedAt,
        name: change.name ?? null,
        role: change.role ?? null,
        passwordHash: change.passwordHash ?? null,
        oidcSubject: change.oidcSubject ?? null,
      });
      if (result.changes === 0) return null;
      return toAccount(byId.get(id)!);
    },
    async deleteAccount(id) {
      return removeAccountWithTokens(id);
    },
    async countAccounts(role) {
      return (role === undefined ? count.get() : countRole.get(role))!.n;
    },

    async saveSetupLink(link) {
      insertLink.run(link);
    },
    async findSetupLink(tokenHash, now) {
      const row = linkByHash.get(tokenHash, now);
      return row ? toLink(row) : null;
    },
    async takeSetupLink(tokenHash, now) {
      const row = takeLink.get(tokenHash);
      return row && row.expires_at > now ? toLink(row) : null;
    },
    async listSetupLinks(now) {
      return liveLinks.all(now).map(toLink);
    },
    async deleteSetupLink(tokenHash) {
      return removeLink.run(tokenHash).changes === 1;
    },

    async saveToken(token) {
      insertToken.run(token);
    },
    async tokenByHash(hash) {
      const row = tokenByHash.get(hash);
      return row ? toToken(row) : null;
    },
    async listTokens(accountId) {
      return tokensOf.all(accountId).map(toToken);
    },
    async deleteToken(accountId, id) {
      return removeToken.run(accountId, id).changes === 1;
    },
    async markTokenUsed(id, at) {
      touchToken.run(at, id);
    },
  };
}
