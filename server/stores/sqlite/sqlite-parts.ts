import type { StoreParts } from '../../ports/store-parts.ts';
import { sqliteAccounts } from './sqlite-accounts.ts';
import { sqliteAudit } from './sqlite-audit.ts';
import { sqliteBotTests } from './sqlite-bot-tests.ts';
import { sqliteChannelInbox } from './sqlite-channel-inbox.ts';
import { sqliteIdentityLinks } from './sqlite-identity-links.ts';
import { sqliteInsights } from './sqlite-insights.ts';
import { sqlitePresence } from './sqlite-presence.ts';
import { sqlitePreviewUsers } from './sqlite-preview-users.ts';
import { sqliteRestingUsers } from './sqlite-resting-users.ts';
import { sqliteSecrets } from './sqlite-secrets.ts';
import { sqliteSessions } from './sqlite-sessions.ts';
import type { SqliteStore } from './sqlite-store.ts';
import { sqliteSubscriptions } from './sqlite-subscriptions.ts';
import { sqliteUsageCounters } from './sqlite-usage.ts';
import { sqliteVersions } from './sqlite-versions.ts';

/** The embedded store's parts on its own connection; their tables come with its migrations. */
export function sqliteParts(store: SqliteStore): StoreParts {
  const { db } = store;
  return {
    versions: () => sqliteVersions(db),
    resting: () => sqliteRestingUsers(db),
    botTests: () => sqliteBotTests(db),
    previewUsers: () => sqlitePreviewUsers(db),
    presence: () => sqlitePresence(db),
    channelInbox: () => sqliteChannelInbox(db),
    insights: (options) => sqliteInsights(db, options),
    people: async () => ({
      accounts: sqliteAccounts(db),
      sessions: sqliteSessions(db),
      audit: sqliteAudit(db),
      secrets: sqliteSecrets(db),
    }),
    events: () => ({ subscriptions: sqliteSubscriptions(store), usage: sqliteUsageCounters(store) }),
    identityLinks: () => sqliteIdentityLinks(db),
  };
}
