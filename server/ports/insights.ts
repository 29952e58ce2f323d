import type { ConversationEvent, ConversationSummary } from '../../shared/studio-insights.ts';

/**
 * The insights store: what the studio's dashboard, drop-off, misses and conversation search read.
 *
 * Figures are counters kept with each turn (app/insights/recorder.ts adds them up in memory and
 * writes them about once a second with `record`), keyed by UTC day and by the published version
 * that was in service, so a 30-day dashboard reads at most a few thousand counters whatever the
 * size of the transcript. Conversations are kept as one summary each (who, when, channel, the
 * steps reached, the user's words up to a bound, the user data at the last turn), which the search
 * reads instead of the transcript.
 *
 * Preview users (UserRecord.preview, see ports/store.ts) are never recorded here: their turns add
 * nothing, so no query needs to leave them out.
 *
 * Times are epoch milliseconds; days are UTC day numbers (`Math.floor(ms / 86_400_000)`).
 */

export const DAY_MS = 86_400_000;

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The counter kinds, and what `a` / `b` hold for each. */
export const METRICS = [
  /** Conversations that started that day. */
  'conversations',
  /** Users whose first message of the day it was (distinct users who wrote). */
  'activeUsers',
  'messagesUser',
  'messagesBot',
  /** a = dialog id: conversations that entered the dialog (once each), by the conversation's start day. */
  'dialogStarted',
  /** a = dialog id: conversations whose run in the dialog ended on its own terms (engine TurnResult.completed). */
  'dialogCompleted',
  /** a = dialog id, b = step id: conversations that reached the step (once each), by start day. */
  'stepReached',
  /** a = dialog id, b = step id: conversations whose last step this was, by start day (open ones are taken out when read). */
  'stepStopped',
  'faqAnswered',
  'faqMissed',
  /** a = status class ('2xx', '3xx', '4xx', '5xx', 'failed'). */
  'integrationCalls',
  /** a = status class, b = latency bucket index (LATENCY_BUCKETS). */
  'integrationLatency',
  /** a = domain. */
  'urlClicks',
  'emailsSent',
  'smsSent',
  /** a = the input as written (trimmed, at most TEXT_LIMIT characters): free text nothing understood. */
  'unprocessed',
  /** a = the question as written: FAQ questions no pair answered. */
  'faqMiss',
] as const;
export type Metric = (typeof METRICS)[number];

/** Texts kept in counters are cut to this many characters. */
export { TEXT_LIMIT } from '../../shared/studio-api.ts';

/**
 * Upper bounds (ms) of the latency buckets: 1 ms to about 66 s, each a quarter wider than the one
 * before, so a percentile read from them is within about 12 % of the true value.
 */
export const LATENCY_BUCKETS: readonly number[] = Array.from(
  { length: 50 },
  (_, i) => Math.round(1.25 ** i * 100) / 100,
);

export function latencyBucket(ms: number): number {
  const index = LATENCY_BUCKETS.findIndex((upper) => ms <= upper);
  return index === -1 ? LATENCY_BUCKETS.length - 1 : index;
}

export interface CounterKey {
  readonly day: number;
  /** The published version in service (`unversioned` for a bot not yet read from the versions store). */
  readonly version: string;
  readonly metric: Metric;
  /**
   * The channel counted under (a `channelId`: webchat, telegram, …): a conversation, its steps, dialogs
   * and stops under the channel it started on, so a stop taken back lands where it was added; a turn's
   * messages, active users and unprocessed inputs under the channel the turn came in on (a linked
   * person writes from several).
   * Absent (stored as '') for counters of no channel, such as those written before channels were
   * counted: they add to the totals of every channel, to no one channel's.
   */
  readonly channel?: string;
  readonly a?: string;
  readonly b?: string;
}

export interface CountDelta extends CounterKey {
  /** May be negative: a conversation's last step moves on as it goes on. */
  readonly n: number;
}

/** The wire shapes of a conversation, in shared/ with the studio's HTTP contract. */
export type { ConversationEvent, ConversationSummary };

export const SUMMARY_TEXT_LIMIT = 1000;
export const SUMMARY_EVENTS = 50;

/** What one write (about once a second) carries: counter changes and the conversations that changed. */
export interface InsightsBatch {
  /**
   * Names the batch: written again with the same id after a failure, it counts once. A store
   * that writes a batch in several documents and fails halfway skips, on the retry, those that
   * already hold it; one that writes it all or nothing needs no more. Without an id, each write counts.
   */
  readonly id?: string;
  readonly counts: readonly CountDelta[];
  readonly conversations: readonly ConversationSummary[];
}

export interface DayRange {
  /** First day included. */
  readonly fromDay: number;
  /** Last day included. */
  readonly toDay: number;
  /** One published version, or every version when absent. */
  readonly version?: string;
  /** One channel (a `channelId`), or every channel when absent. */
  readonly channel?: string;
}

/** Counters over a range, summed over the versions asked for: `metric` → `a` → `b` → count, and by day for the daily series. */
export interface CounterTotals {
  /** Per day: metric → total (a and b summed), for the daily charts. */
  readonly daily: ReadonlyMap<number, ReadonlyMap<Metric, number>>;
  /** metric → a → b → total over the range ('' where a metric has no a or b). */
  readonly totals: ReadonlyMap<Metric, ReadonlyMap<string, ReadonlyMap<string, number>>>;
  /** Per channel: channel → metric → total over the range (a and b summed); counters of no channel ('') are in none. */
  readonly channels: ReadonlyMap<string, ReadonlyMap<Metric, number>>;
}

export interface ConversationQuery {
  /** Conversations that started in [fromMs, toMs). */
  readonly fromMs: number;
  readonly toMs: number;
  /** Words the user wrote (case-insensitive substring of the conversation's text). */
  readonly text?: string;
  /** A user-data field and the value it must have (compared as strings). */
  readonly field?: { readonly name: string; readonly value: string };
  readonly channel?: string;
  /** `dialogId/stepId` the conversation reached. */
  readonly reached?: string;
  readonly integrationError?: boolean;
  /** Newest first: only conversations that started before this (the previous page's `next`). */
  readonly before?: { readonly startedAt: number; readonly userId: string };
  readonly limit: number;
}

export interface ConversationPage {
  readonly items: readonly ConversationSummary[];
  /** Where the next page starts; absent when there is none. */
  readonly next?: { readonly startedAt: number; readonly userId: string };
  /**
   * Set when the search stopped reading at its budget before it filled the page: it read every
   * conversation that started after this time. The next page carries on from there.
   */
  readonly searchedBackTo?: number;
  /** With searchedBackTo: how many conversations the search read before it stopped. */
  readonly searched?: number;
}

/**
 * Conversations one search request reads at most (INSIGHTS_SEARCH_BUDGET): a search by words or a
 * user-data field reads every conversation of the range until it fills a page, so without a bound
 * a rare word over a year would read them all. Past it the page says how far back it read.
 */
export const DEFAULT_SEARCH_BUDGET = 50_000;

export interface InsightsStoreOptions {
  /** Conversations one search reads at most (DEFAULT_SEARCH_BUDGET). */
  readonly searchBudget?: number;
}

/** A conversation whose last turn is recent: not stopped yet, whatever the counters say. */
export interface OpenConversation {
  readonly startedAt: number;
  /** The channel it started on ('' when the store kept none: an entry from before channels were counted). */
  readonly channel: string;
  readonly lastAt: number;
  readonly lastVersion: string;
  readonly lastStep: string | null;
}

/** A log row of one user, for the transcript view. */
export interface UserLogRow {
  readonly kind: string;
  readonly timestamp: number;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface InsightsStore {
  /** Adds the counters and replaces the conversations (by user and start). */
  record(batch: InsightsBatch): Promise<void>;
  /** Counter totals over the range (at most `(toDay - fromDay + 1)` days of counters are read). */
  counters(range: DayRange, metrics: readonly Metric[]): Promise<CounterTotals>;
  /** Conversations whose last turn is at or after `sinceMs` (the open ones), at most `limit`. */
  openConversations(sinceMs: number, limit: number): Promise<OpenConversation[]>;
  /** Conversations newest first (by their start) matching every filter given. */
  searchConversations(query: ConversationQuery): Promise<ConversationPage>;
  /** One user's conversations, newest first, at most `limit`. */
  conversationsOf(userId: string, limit: number): Promise<ConversationSummary[]>;
  /** One user's log rows of the given kinds in the range, oldest first, at most `limit`. */
  userLogs(
    userId: string,
    kinds: readonly string[],
    fromMs: number,
    toMs: number,
    limit: number,
  ): Promise<UserLogRow[]>;
  /** Removes the user's conversations (erasure); the counters hold no one and stay. Returns how many went. */
  eraseUser(userId: string): Promise<number>;
  /**
   * Retention: conversations that ended before `conversationsBefore` (they hold the user's words and
   * data, kept as long as the transcript), and for each metric given, its counters of the days
   * before that day (the counters that hold texts users wrote, kept as long as their log). Other
   * counters hold no one and stay. Returns how many conversations and counter days went.
   */
  purge(
    conversationsBefore: number | undefined,
    countersBeforeDay: Readonly<Partial<Record<Metric, number>>>,
  ): Promise<{ conversations: number; counters: number }>;
}
