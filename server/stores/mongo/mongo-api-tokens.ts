import type { Db } from 'mongodb';
import type { ApiToken } from '../../ports/accounts.ts';
import type { ApiTokens } from '../common/account-parts.ts';
import { indexedCollection } from './indexes.ts';

export const TOKENS = 'studio_tokens';

interface TokenDoc {
  _id: string;
  accountId: string;
  name: string;
  tokenHash: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

const toToken = ({ _id, ...rest }: TokenDoc): ApiToken => ({ id: _id, ...rest });

/** The studio's API tokens, each an account's, found by their unique hash. */
export async function mongoApiTokens(db: Db): Promise<ApiTokens> {
  const tokens = await indexedCollection<TokenDoc>(db, TOKENS, [
    { key: { tokenHash: 1 }, name: 'token_hash', unique: true },
    { key: { accountId: 1, createdAt: 1 }, name: 'account_created' },
  ]);

  return {
    async saveToken(token) {
      const { id, ...rest } = token;
      await tokens.insertOne({ _id: id, ...rest });
    },
    async tokenByHash(tokenHash) {
      const doc = await tokens.findOne({ tokenHash });
      return doc ? toToken(doc) : null;
    },
    async listTokens(accountId) {
      return (await tokens.find({ accountId }).sort({ createdAt: -1, _id: -1 }).toArray()).map(toToken);
    },
    async deleteToken(accountId, id) {
      return (await tokens.deleteOne({ _id: id, accountId })).deletedCount === 1;
    },
    async markTokenUsed(id, at) {
      await tokens.updateOne({ _id: id }, { $set: { lastUsedAt: at } });
    },
  };
}
