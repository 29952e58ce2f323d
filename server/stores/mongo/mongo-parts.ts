import type { StoreParts } from '../../ports/store-parts.ts';
import { mongoAccounts } from './mongo-accounts.ts';
import { mongoAudit } from './mongo-audit.ts';
import { mongoBotTests } from './mongo-bot-tests.ts';
import { mongoChannelInbox } from './mongo-channel-inbox.ts';
import { mongoIdentityLinks } from './mongo-identity-links.ts';
import { mongoInsights } from './mongo-insights.ts';
import { mongoPresence } from './mongo-presence.ts';
import { mongoPreviewUsers } from './mongo-preview-users.ts';
import { mongoRestingUsers } from './mongo-resting-users.ts';
import { mongoSecrets } from './mongo-secrets.ts';
import { mongoSessions } from './mongo-sessions.ts';
import type { MongoStore } from './mongo-store.ts';
import { mongoSubscriptions } from './mongo-subscriptions.ts';
import { mongoUsageCounters } from './mongo-usage.ts';
import { mongoVersions } from './mongo-versions.ts';

/**
 * The Mongo store's parts on its own connection. Those with indexes of their own ensure them as
 * they open; event subscriptions and usage counters come with the store's (indexes.ts).
 */
export function mongoParts(store: MongoStore): StoreParts {
  const { db, locks } = store;
  return {
    versions: () => mongoVersions(db, locks),
    resting: () => mongoRestingUsers(db),
    botTests: () => mongoBotTests(db),
    previewUsers: () => mongoPreviewUsers(db),
    presence: () => mongoPresence(db),
    channelInbox: () => mongoChannelInbox(db, (job) => store.scheduleJob(job)),
    insights: (options) => mongoInsights(db, options, locks),
    people: async () => ({
      accounts: await mongoAccounts(db),
      sessions: await mongoSessions(db),
      audit: await mongoAudit(db),
      secrets: mongoSecrets(db),
    }),
    events: () => ({ subscriptions: mongoSubscriptions(store), usage: mongoUsageCounters(store) }),
    identityLinks: () => mongoIdentityLinks(db),
  };
}
