import type { Database } from './database.ts';
import type { Account, Accounts } from '../../ports/accounts.ts';
import type { AccountRecords } from '../common/account-parts.ts';
import { sqliteApiTokens, TOKENS } from './sqlite-api-tokens.ts';
import { sqliteSetupLinks } from './sqlite-setup-links.ts';
import { insertInto, selectFrom, table } from './table.ts';

const ACCOUNTS = table<Account>('studio_accounts', {
  id: 'id',
  email: 'email',
  name: 'name',
  role: 'role',
  passwordHash: 'password_hash',
  oidcSubject: 'oidc_subject',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
});

/** The accounts store on the embedded store (tables of migration 9): the accounts, their setup links and API tokens. */
export function sqliteAccounts(db: Database): Accounts {
  return { ...sqliteAccountRecords(db), ...sqliteSetupLinks(db), ...sqliteApiTokens(db) };
}

function sqliteAccountRecords(db: Database): AccountRecords {
  const insertAccount = db.prepare(`${insertInto(ACCOUNTS)} ON CONFLICT (email) DO NOTHING`);
  const byId = db.prepare<[string], Account>(`${selectFrom(ACCOUNTS)} WHERE id = ?`);
  const byEmail = db.prepare<[string], Account>(`${selectFrom(ACCOUNTS)} WHERE email = ?`);
  const bySubject = db.prepare<[string], Account>(`${selectFrom(ACCOUNTS)} WHERE oidc_subject = ?`);
  const all = db.prepare<[], Account>(`${selectFrom(ACCOUNTS)} ORDER BY created_at, id`);
  const count = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${ACCOUNTS.name}`);
  const countRole = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${ACCOUNTS.name} WHERE role = ?`);
  const removeAccount = db.prepare<[string]>(`DELETE FROM ${ACCOUNTS.name} WHERE id = ?`);
  const removeTokensOf = db.prepare<[string]>(`DELETE FROM ${TOKENS.name} WHERE account_id = ?`);
  const removeAccountWithTokens = db.transaction((id: string) => {
    removeTokensOf.run(id);
    return removeAccount.run(id).changes === 1;
  });

  return {
    async createAccount(account) {
      const inserted = insertAccount.run({
        ...account,
        email: account.email.toLowerCase(),
        oidcSubject: account.oidcSubject ?? null,
        updatedAt: account.createdAt,
      });
      if (inserted.changes === 0) return { ok: false, reason: 'email_taken' };
      return { ok: true, account: byId.get(account.id)! };
    },
    async accountById(id) {
      return byId.get(id) ?? null;
    },
    async accountByEmail(email) {
      return byEmail.get(email.toLowerCase()) ?? null;
    },
    async accountByOidcSubject(subject) {
      return bySubject.get(subject) ?? null;
    },
    async listAccounts() {
      return all.all();
    },
    async updateAccount(id, change) {
      const sets: string[] = ['updated_at = @updatedAt'];
      if (change.name !== undefined) sets.push('name = @name');
      if (change.role !== undefined) sets.push('role = @role');
      if (change.passwordHash !== undefined) sets.push('password_hash = @passwordHash');
      if (change.oidcSubject !== undefined) sets.push('oidc_subject = @oidcSubject');
      const result = db.prepare(`UPDATE ${ACCOUNTS.name} SET ${sets.join(', ')} WHERE id = @id`).run({
        id,
        updatedAt: change.updatedAt,
        name: change.name ?? null,
        role: change.role ?? null,
        passwordHash: change.passwordHash ?? null,
        oidcSubject: change.oidcSubject ?? null,
      });
      if (result.changes === 0) return null;
      return byId.get(id)!;
    },
    async deleteAccount(id) {
      return removeAccountWithTokens(id);
    },
    async countAccounts(role) {
      return (role === undefined ? count.get() : countRole.get(role))!.n;
    },
  };
}
