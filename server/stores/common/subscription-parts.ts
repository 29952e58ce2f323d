import type { SubscriptionStore } from '../../ports/event-subscriptions.ts';

/** The parts of the subscriptions port: the subscriptions themselves, and the log of events they follow. */
export type SubscriptionRecords = Pick<
  SubscriptionStore,
  'createSubscription' | 'getSubscription' | 'listSubscriptions' | 'updateSubscription' | 'deleteSubscription'
>;
export type EventLog = Omit<SubscriptionStore, keyof SubscriptionRecords>;
