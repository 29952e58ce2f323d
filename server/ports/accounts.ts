import type { Role } from './roles.ts';

/**
 * The studio's accounts room: people who sign in, the one-time setup links that create them,
 * and their API tokens. Secrets never enter this port in the clear: passwords arrive hashed
 * (argon2id, in the room's code) and setup links and API tokens as SHA-256 digests of the
 * value handed out once.
 */

export interface Account {
  readonly id: string;
  /** Lower-cased; unique. */
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  /** The PHC string of the password's hash; null for an account that signs in through single sign-on only. */
  readonly passwordHash: string | null;
  /** `issuer sub` of the single sign-on identity bound to this account, if any. */
  readonly oidcSubject: string | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewAccount {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly passwordHash: string | null;
  readonly oidcSubject?: string | null;
  readonly createdAt: number;
}

export interface AccountChange {
  readonly name?: string;
  readonly role?: Role;
  readonly passwordHash?: string | null;
  readonly oidcSubject?: string | null;
  readonly updatedAt: number;
}

/** A one-time link that lets its holder create an account with a given role (the first owner, an invitation). */
export interface SetupLink {
  /** SHA-256 (hex) of the token in the link. */
  readonly tokenHash: string;
  readonly role: Role;
  /** Set for an invitation to a named person; null lets the holder choose. */
  readonly email: string | null;
  /** The account that made it; null when the server or the command line did. */
  readonly createdBy: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** An account's API token, as stored: never the token itself. */
export interface ApiToken {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  /** SHA-256 (hex) of the token. */
  readonly tokenHash: string;
  readonly createdAt: number;
  /** Null: valid until revoked. */
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
}

export type CreateAccountResult =
  { readonly ok: true; readonly account: Account } | { readonly ok: false; readonly reason: 'email_taken' };

export interface Accounts {
  /** Refused (not thrown) when the email is taken, compared without case. */
  createAccount(account: NewAccount): Promise<CreateAccountResult>;
  accountById(id: string): Promise<Account | null>;
  accountByEmail(email: string): Promise<Account | null>;
  accountByOidcSubject(subject: string): Promise<Account | null>;
  /** Every account, by creation (oldest first). */
  listAccounts(): Promise<Account[]>;
  /** The changed account, or null when there is none with that id. */
  updateAccount(id: string, change: AccountChange): Promise<Account | null>;
  /** Removes the account and its API tokens; false when there was none. */
  deleteAccount(id: string): Promise<boolean>;
  countAccounts(role?: Role): Promise<number>;

  saveSetupLink(link: SetupLink): Promise<void>;
  /** The link if it exists and has not expired at `now`; it stays usable. */
  findSetupLink(tokenHash: string, now: number): Promise<SetupLink | null>;
  /** Takes the link once: the first caller gets it, every later one null (also when expired). */
  takeSetupLink(tokenHash: string, now: number): Promise<SetupLink | null>;
  /** Links not yet used or expired, newest first. */
  listSetupLinks(now: number): Promise<SetupLink[]>;
  deleteSetupLink(tokenHash: string): Promise<boolean>;

  saveToken(token: ApiToken): Promise<void>;
  tokenByHash(tokenHash: string): Promise<ApiToken | null>;
  /** An account's tokens, newest first. */
  listTokens(accountId: string): Promise<ApiToken[]>;
  /** Revokes one of the account's tokens; false when it has none with that id. */
  deleteToken(accountId: string, id: string): Promise<boolean>;
  markTokenUsed(id: string, at: number): Promise<void>;
}
