import type { Database } from './database.ts';
import type { ApiToken } from '../../ports/accounts.ts';
import type { ApiTokens } from '../common/account-parts.ts';
import { insertInto, selectFrom, table } from './table.ts';

export const TOKENS = table<ApiToken>('studio_tokens', {
  id: 'id',
  accountId: 'account_id',
  name: 'name',
  tokenHash: 'token_hash',
  createdAt: 'created_at',
  expiresAt: 'expires_at',
  lastUsedAt: 'last_used_at',
});

/** The studio's API tokens (migration 9), each an account's. */
export function sqliteApiTokens(db: Database): ApiTokens {
  const insertToken = db.prepare(insertInto(TOKENS));
  const tokenByHash = db.prepare<[string], ApiToken>(`${selectFrom(TOKENS)} WHERE token_hash = ?`);
  const tokensOf = db.prepare<[string], ApiToken>(
    `${selectFrom(TOKENS)} WHERE account_id = ? ORDER BY created_at DESC, id DESC`,
  );
  const removeToken = db.prepare<[string, string]>(`DELETE FROM ${TOKENS.name} WHERE account_id = ? AND id = ?`);
  const touchToken = db.prepare<[number, string]>(`UPDATE ${TOKENS.name} SET last_used_at = ? WHERE id = ?`);

  return {
    async saveToken(token) {
      insertToken.run(token);
    },
    async tokenByHash(hash) {
      return tokenByHash.get(hash) ?? null;
    },
    async listTokens(accountId) {
      return tokensOf.all(accountId);
    },
    async deleteToken(accountId, id) {
      return removeToken.run(accountId, id).changes === 1;
    },
    async markTokenUsed(id, at) {
      touchToken.run(at, id);
    },
  };
}
