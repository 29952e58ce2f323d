import type { Db } from 'mongodb';
import type { Account, Accounts, ApiToken, SetupLink } from '../../ports/accounts.ts';
import type { Role } from '../../ports/roles.ts';
import { ensureCollectionIndexes } from './indexes.ts';
import { isDuplicateKey } from './mongo-common.ts';

export const ACCOUNT_COLLECTIONS = {
  accounts: 'studio_accounts',
  setupLinks: 'studio_setup_links',
  tokens: 'studio_tokens',
} as const;

interface AccountDoc {
  _id: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  oidcSubject: string | null;
  createdAt: number;
  updatedAt: number;
  /** Creation order across nodes: createdAt, then the id. */
  order: string;
}
interface LinkDoc {
  _id: string;
  role: Role;
  email: string | null;
  createdBy: string | null;
  createdAt: number;
  expiresAt: number;
}
interface TokenDoc {
  _id: string;
  accountId: string;
  name: string;
  tokenHash: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

const toAccount = ({ _id, order: _order, ...rest }: AccountDoc): Account => ({ id: _id, ...rest });
const toLink = ({ _id, ...rest }: LinkDoc): SetupLink => ({ tokenHash: _id, ...rest });
const toToken = ({ _id, ...rest }: TokenDoc): ApiToken => ({ id: _id, ...rest });

/*
 * What is atomic on MongoDB and FerretDB alike (see mongo-leases.ts): an insert under a unique
 * index and a delete by _id. A new account is an insert under the unique email; a setup link is
 * taken by deleting it by _id, so of two takers only one sees deletedCount 1. The single sign-on
 * subject is not indexed unique (FerretDB lacks partial and sparse indexes, and most accounts
 * have none): the room looks it up before binding it.
 */
export async function mongoAccounts(db: Db): Promise<Accounts> {
  await ensureCollectionIndexes(db, {
    [ACCOUNT_COLLECTIONS.accounts]: [
      { key: { email: 1 }, name: 'email', unique: true },
      { key: { oidcSubject: 1 }, name: 'oidc_subject' },
      { key: { order: 1 }, name: 'order' },
    ],
    [ACCOUNT_COLLECTIONS.setupLinks]: [{ key: { createdAt: 1 }, name: 'created' }],
    [ACCOUNT_COLLECTIONS.tokens]: [
      { key: { tokenHash: 1 }, name: 'token_hash', unique: true },
      { key: { accountId: 1, createdAt: 1 }, name: 'account_created' },
    ],
  });
  const accounts = db.collection<AccountDoc>(ACCOUNT_COLLECTIONS.accounts);
  const links = db.collection<LinkDoc>(ACCOUNT_COLLECTIONS.setupLinks);
  const tokens = db.collection<TokenDoc>(ACCOUNT_COLLECTIONS.tokens);

  return {
    async createAccount(account) {
      const doc: AccountDoc = {
        _id: account.id,
        email: account.email.toLowerCase(),
        name: account.name,
        role: account.role,
        passwordHash: account.passwordHash,
        oidcSubject: account.oidcSubject ?? null,
        createdAt: account.createdAt,
        updatedAt: account.createdAt,
        order: `${String(account.createdAt).padStart(15, '0')}:${account.id}`,
      };
      try {
        await accounts.insertOne(doc);
      } catch (error) {
        if (isDuplicateKey(error)) return { ok: false, reason: 'email_taken' };
        throw error;
      }
      return { ok: true, account: toAccount(doc) };
    },
    async accountById(id) {
      const doc = await accounts.findOne({ _id: id });
      return doc ? toAccount(doc) : null;
    },
    async accountByEmail(email) {
      const doc = await accounts.findOne({ email: email.toLowerCase() });
      return doc ? toAccount(doc) : null;
    },
    async accountByOidcSubject(subject) {
      const doc = await accounts.findOne({ oidcSubject: subject });
      return doc ? toAccount(doc) : null;
    },
    async listAccounts() {
      return (await accounts.find({}).sort({ order: 1 }).toArray()).map(toAccount);
    },
    async updateAccount(id, change) {
      const set: Partial<AccountDoc> = { updatedAt: change.updatedAt };
      if (change.name !== undefined) set.name = change.name;
      if (change.role !== undefined) set.role = change.role;
      if (change.passwordHash !== undefined) set.passwordHash = change.passwordHash;
      if (change.oidcSubject !== undefined) set.oidcSubject = change.oidcSubject;
      const result = await accounts.updateOne({ _id: id }, { $set: set });
      if (result.matchedCount === 0) return null;
      const doc = await accounts.findOne({ _id: id });
      return doc ? toAccount(doc) : null;
    },
    async deleteAccount(id) {
      await tokens.deleteMany({ accountId: id });
      return (await accounts.deleteOne({ _id: id })).deletedCount === 1;
    },
    async countAccounts(role) {
      return accounts.countDocuments(role === undefined ? {} : { role });
    },

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
