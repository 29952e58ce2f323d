import type { Accounts } from './accounts.ts';
import type { AuditStore } from './audit.ts';
import type { BotTestsStore } from './bot-tests.ts';
import type { ChannelInbox } from './channel-inbox.ts';
import type { SubscriptionStore } from './event-subscriptions.ts';
import type { IdentityLinks } from './identity-links.ts';
import type { InsightsStore, InsightsStoreOptions } from './insights.ts';
import type { PresenceBoard } from './presence.ts';
import type { PreviewUsers } from './preview.ts';
import type { RestingUsers } from './resting-users.ts';
import type { SecretStore } from './secrets.ts';
import type { Sessions } from './sessions.ts';
import type { UsageCounters } from './usage-counters.ts';
import type { VersionsStore } from './versions.ts';

/** The studio's people-side stores: accounts, sessions, the audit trail and secrets. */
export interface PeopleStores {
  readonly accounts: Accounts;
  readonly sessions: Sessions;
  readonly audit: AuditStore;
  readonly secrets: SecretStore;
}

/** Event subscriptions (with their event log) and step types' usage counters. */
export interface EventStores {
  readonly subscriptions: SubscriptionStore;
  readonly usage: UsageCounters;
}

/**
 * The stores beyond the Store port, each opened on the store's own connection. Each adapter
 * (stores/sqlite/sqlite-parts.ts, stores/mongo/mongo-parts.ts) gives its own; Mongo's open
 * asynchronously where they ensure their indexes first.
 */
export interface StoreParts {
  versions(): Promise<VersionsStore> | VersionsStore;
  resting(): RestingUsers;
  botTests(): BotTestsStore;
  previewUsers(): PreviewUsers;
  presence(): Promise<PresenceBoard> | PresenceBoard;
  channelInbox(): Promise<ChannelInbox> | ChannelInbox;
  insights(options: InsightsStoreOptions): Promise<InsightsStore> | InsightsStore;
  people(): Promise<PeopleStores>;
  events(): EventStores;
  identityLinks(): Promise<IdentityLinks> | IdentityLinks;
}
