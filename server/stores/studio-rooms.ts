import type { Accounts } from '../ports/accounts.ts';
import type { AuditStore } from '../ports/audit.ts';
import type { SecretStore } from '../ports/secrets.ts';
import type { Sessions } from '../ports/sessions.ts';
import type { MongoStore } from './mongo/mongo-store.ts';
import { mongoAccounts } from './mongo/mongo-accounts.ts';
import { mongoAudit } from './mongo/mongo-audit.ts';
import { mongoSecrets } from './mongo/mongo-secrets.ts';
import { mongoSessions } from './mongo/mongo-sessions.ts';
import type { SqliteStore } from './sqlite/sqlite-store.ts';
import { sqliteAccounts } from './sqlite/sqlite-accounts.ts';
import { sqliteAudit } from './sqlite/sqlite-audit.ts';
import { sqliteSecrets } from './sqlite/sqlite-secrets.ts';
import { sqliteSessions } from './sqlite/sqlite-sessions.ts';

/** The studio's people-side rooms on the store's own connection. */
export interface PeopleRooms {
  readonly accounts: Accounts;
  readonly sessions: Sessions;
  readonly audit: AuditStore;
  readonly secrets: SecretStore;
}

/** Opens the accounts, sessions, audit and secrets rooms on the store (Mongo rooms ensure their indexes). */
export async function openPeopleRooms(store: SqliteStore | MongoStore): Promise<PeopleRooms> {
  if (store.kind === 'sqlite') {
    return {
      accounts: sqliteAccounts(store.db),
      sessions: sqliteSessions(store.db),
      audit: sqliteAudit(store.db),
      secrets: sqliteSecrets(store.db),
    };
  }
  return {
    accounts: await mongoAccounts(store.db),
    sessions: await mongoSessions(store.db),
    audit: await mongoAudit(store.db),
    secrets: mongoSecrets(store.db),
  };
}
