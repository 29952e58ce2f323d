/**
 * Event subscriptions ("REST hooks"): an automation platform (n8n, Zapier, Make) registers a
 * target URL for some kinds of bot events, and the bot POSTs each such event there, signed,
 * in order. Two things are stored: the subscriptions, each with its delivery cursor, and the
 * event log they read from (kept for replay). A port of its own beside the Store; both
 * adapters implement it and `stores/contract/subscription-cases.ts` pins the behaviour.
 *
 * Times are epoch milliseconds, as in the Store port.
 */

/** What a subscriber can ask to hear about. */
export const EVENT_KINDS = [
  'conversation.started',
  'dialog.started',
  'dialog.completed',
  'userData.changed',
  'trigger.finished',
  'integration.failed',
  'message.notUnderstood',
  'message.undelivered',
  'user.erased',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** An event about to be recorded. `id` is its identity for ever: recording it twice keeps one. */
export interface NewBotEvent {
  /** `evt_…`: what a subscriber deduplicates by (a replay or a retry sends the same id again). */
  readonly id: string;
  readonly kind: EventKind;
  readonly userId: string;
  /** The user's channel when it happened (`webchat`, a REST channel's name). */
  readonly channelId: string;
  /** When it happened. */
  readonly at: number;
  /** What happened, by kind (see the OpenAPI document's event schemas). */
  readonly data: Readonly<Record<string, unknown>>;
}

/** An event as the log holds it: with its place in the log. */
export interface BotEventRecord extends NewBotEvent {
  /** Position in the log: 1, 2, 3 … in the order events were recorded, one user's in the order they happened. */
  readonly seq: number;
}

export type SubscriptionStatus = 'active' | 'paused';

export interface NewSubscription {
  readonly id: string;
  readonly targetUrl: string;
  readonly kinds: readonly EventKind[];
  /** The key deliveries are signed with; handed to the subscriber once, never listed again. */
  readonly secret: string;
  readonly createdAt: number;
}

export interface Subscription extends NewSubscription {
  readonly status: SubscriptionStatus;
  /** Seq of the last event this subscriber has had (or did not want); the next delivery comes after it. */
  readonly cursor: number;
  /** Failed delivery attempts in a row (0 after a success). */
  readonly failures: number;
  /** Why the last attempt failed; null after a success. */
  readonly lastError: string | null;
  readonly lastAttemptAt: number | null;
  readonly lastDeliveredAt: number | null;
  /** When the subscriber was paused for failing; null while active. */
  readonly pausedAt: number | null;
}

/** Fields an update may replace; omitted ones stay. */
export interface SubscriptionPatch {
  readonly status?: SubscriptionStatus;
  readonly cursor?: number;
  readonly failures?: number;
  readonly lastError?: string | null;
  readonly lastAttemptAt?: number | null;
  readonly lastDeliveredAt?: number | null;
  readonly pausedAt?: number | null;
}

export interface EventQuery {
  /** Events with seq > afterSeq. */
  readonly afterSeq: number;
  /** Only these kinds; every kind when omitted. */
  readonly kinds?: readonly EventKind[];
  readonly limit: number;
}

export interface SubscriptionStore {
  /** Stores a new subscription, active, with its cursor at the end of the log: it hears what happens from now on. */
  createSubscription(subscription: NewSubscription): Promise<Subscription>;
  getSubscription(id: string): Promise<Subscription | null>;
  /** Every subscription, oldest first. */
  listSubscriptions(): Promise<Subscription[]>;
  /**
   * Applies the patch. With `ifCursor`, only while the stored cursor still equals it (a replay
   * moved it meanwhile: the caller's view is stale). Null when the subscription is gone or the
   * cursor differs.
   */
  updateSubscription(id: string, patch: SubscriptionPatch, ifCursor?: number): Promise<Subscription | null>;
  /** True when it existed. */
  deleteSubscription(id: string): Promise<boolean>;

  /**
   * Appends events in the given order, each after every event recorded before it; an id already
   * recorded is skipped. Returns how many were added. Readers never see a later seq without the
   * earlier ones (no gaps), so a cursor never skips an event being written.
   */
  appendEvents(events: readonly NewBotEvent[]): Promise<number>;
  /** Events after the cursor, by seq, of the given kinds, at most `limit`. */
  readEvents(query: EventQuery): Promise<BotEventRecord[]>;
  /** How many events after the cursor are of the given kinds (a subscriber's backlog). */
  countEvents(query: Omit<EventQuery, 'limit'>): Promise<number>;
  /** Seq of the last recorded event; 0 when the log is empty. */
  lastEventSeq(): Promise<number>;
  /** Seq of the first event that happened at or after `at`; null when none did. */
  firstEventSeqAt(at: number): Promise<number | null>;
  /** Erasure: removes the user's events; returns how many. */
  eraseUserEvents(userId: string): Promise<number>;
  /** Retention: removes events that happened before `at`; returns how many. */
  purgeEventsBefore(at: number): Promise<number>;
}
