import type { Accounts } from '../ports/studio/accounts.ts';
import type { AuditStore } from '../ports/studio/audit.ts';
import type { SecretStore } from '../ports/studio/secrets.ts';
import type { Sessions } from '../ports/studio/sessions.ts';
import type { MongoStore } from './mongo/mongo-store.ts';
import { mongoAccounts } from './mongo/studio/mongo-accounts.ts';
import { mongoAudit } from './mongo/studio/mongo-audit.ts';
import { mongoSecrets } from './mongo/studio/mongo-secrets.ts';
import { mongoSessions } from './mongo/studio/mongo-sessions.ts';
import type { SqliteStore } from './sqlite/sqlite-store.ts';
import { sqliteAccounts } from './sqlite/studio/sqlite-accounts.ts';
import { sqliteAudit } from './sqlite/studio/sqlite-audit.ts';
import { sqliteSecrets } from './sqlite/studio/sqlite-secrets.ts';
import { sqliteSessions } from './sqlite/studio/sqlite-sessions.ts';

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
