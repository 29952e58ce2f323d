import type { SubscriptionStore } from '../ports/event-subscriptions.ts';
import type { UsageCounters } from '../ports/usage-counters.ts';
import type { MongoStore } from './mongo/mongo-store.ts';
import { mongoSubscriptions } from './mongo/mongo-subscriptions.ts';
import { mongoUsageCounters } from './mongo/mongo-usage.ts';
import type { SqliteStore } from './sqlite/sqlite-store.ts';
import { sqliteSubscriptions } from './sqlite/sqlite-subscriptions.ts';
import { sqliteUsageCounters } from './sqlite/sqlite-usage.ts';

/** Event subscriptions (with their event log) and step types' usage counters, on the store's own connection. */
export interface EventStores {
  readonly subscriptions: SubscriptionStore;
  readonly usage: UsageCounters;
}

/**
 * Opens the event subscriptions and usage counters on the store. Their tables come through the
 * SQLite migrations, their Mongo indexes with the store's own (indexes.ts), so nothing is created here.
 */
export function openEventStores(store: SqliteStore | MongoStore): EventStores {
  if (store.kind === 'sqlite') return { subscriptions: sqliteSubscriptions(store), usage: sqliteUsageCounters(store) };
  return { subscriptions: mongoSubscriptions(store), usage: mongoUsageCounters(store) };
}
