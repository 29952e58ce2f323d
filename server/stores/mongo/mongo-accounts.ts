import type { Db } from 'mongodb';
import type { Account, Accounts } from '../../ports/accounts.ts';
import type { AccountRecords } from '../common/account-parts.ts';
import type { Role } from '../../ports/roles.ts';
import { indexedCollection } from './indexes.ts';
import { mongoApiTokens, TOKENS } from './mongo-api-tokens.ts';
import { isDuplicateKey } from './mongo-common.ts';
import { mongoSetupLinks } from './mongo-setup-links.ts';

const ACCOUNTS = 'studio_accounts';

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

const toAccount = ({ _id, order: _order, ...rest }: AccountDoc): Account => ({ id: _id, ...rest });

/*
 * What is atomic on MongoDB and FerretDB alike (see mongo-leases.ts): an insert under a unique
 * index and a delete by _id. A new account is an insert under the unique email; a setup link is
 * taken by deleting it by _id (mongo-setup-links.ts). The single sign-on
 * subject is not indexed unique (FerretDB lacks partial and sparse indexes, and most accounts
 * have none): the store looks it up before binding it.
 */
export async function mongoAccounts(db: Db): Promise<Accounts> {
  return { ...(await mongoAccountRecords(db)), ...(await mongoSetupLinks(db)), ...(await mongoApiTokens(db)) };
}

async function mongoAccountRecords(db: Db): Promise<AccountRecords> {
  const accounts = await indexedCollection<AccountDoc>(db, ACCOUNTS, [
    { key: { email: 1 }, name: 'email', unique: true },
    { key: { oidcSubject: 1 }, name: 'oidc_subject' },
    { key: { order: 1 }, name: 'order' },
  ]);
  const tokens = db.collection<{ accountId: string }>(TOKENS);

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
  };
}
