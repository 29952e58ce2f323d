/**
 * What the studio's insights API answers (server/studio-server/http/insights-routes.ts): one definition
 * here, imported by the server (ports/insights.ts, server/studio-server/insights/) and by the studio's
 * Insights screen, so the two cannot drift apart. Types only; the routes that answer with them
 * are in studio-api.ts.
 */

/** A page event, trigger or timer of a conversation. */
export interface ConversationEvent {
  readonly at: number;
  readonly kind: 'pageEvent' | 'trigger' | 'timer';
  readonly name: string;
}

/** One conversation as the search and the transcript view see it. */
export interface ConversationSummary {
  readonly userId: string;
  readonly startedAt: number;
  readonly lastAt: number;
  readonly channel: string;
  /** Version in service when the conversation started, and at its last turn. */
  readonly version: string;
  readonly lastVersion: string;
  /** `dialogId/stepId` of every step reached, in the order first reached. */
  readonly steps: readonly string[];
  /** `dialogId/stepId` of the last step reached: where the conversation stopped, once it has. */
  readonly lastStep: string | null;
  /** An integration call of the conversation failed (an error status or no answer). */
  readonly integrationError: boolean;
  readonly messages: number;
  /** The user's words in the conversation, joined, at most SUMMARY_TEXT_LIMIT characters (ports/insights.ts). */
  readonly text: string;
  /** The user's data (declared fields) as of the last turn. */
  readonly userData: Readonly<Record<string, unknown>>;
  /** Page events, triggers and timers of the conversation, oldest first, at most SUMMARY_EVENTS. */
  readonly events: readonly ConversationEvent[];
}

/** The range a report covers: UTC days, YYYY-MM-DD, both inclusive. */
export interface ReportRange {
  readonly from: string;
  readonly to: string;
}

export interface DailyFigures {
  /** The UTC day, YYYY-MM-DD. */
  readonly date: string;
  readonly conversations: number;
  readonly activeUsers: number;
  readonly messagesUser: number;
  readonly messagesBot: number;
}

/** One channel's share of the range: conversations started on it and their messages. */
export interface ChannelFigures {
  /** The channel's id (`webchat`, `telegram`, `twilio-sms`, a REST channel's name, …). */
  readonly channel: string;
  readonly conversations: number;
  readonly messagesUser: number;
  readonly messagesBot: number;
}

/** The dashboard's figures, as read from the counters. */
export interface DashboardFigures {
  readonly daily: readonly DailyFigures[];
  readonly totals: { readonly conversations: number; readonly messagesUser: number; readonly messagesBot: number };
  /**
   * Per channel, most conversations first: a conversation and all its messages count under the
   * channel it started on. Counts kept before channels were counted are in the totals, under no channel.
   */
  readonly channels: readonly ChannelFigures[];
  /** Conversations that entered each dialog, and those whose run in it completed (an end step, past its last step, or its own jump onward). */
  readonly dialogs: readonly { readonly dialogId: string; readonly started: number; readonly completed: number }[];
  readonly unprocessed: readonly { readonly text: string; readonly count: number }[];
  readonly faq: {
    readonly answered: number;
    readonly missed: number;
    readonly misses: readonly { readonly text: string; readonly count: number }[];
  };
  /** By status class (2xx … 5xx, `failed` for no answer), latency percentiles from the buckets (within about 12 %). */
  readonly integrations: readonly {
    readonly status: string;
    readonly calls: number;
    readonly p50Ms: number;
    readonly p95Ms: number;
  }[];
  readonly urlClicks: readonly { readonly domain: string; readonly clicks: number }[];
  readonly sent: { readonly emails: number; readonly sms: number };
}

/** GET /studio/api/insights/dashboard. */
export interface Dashboard extends ReportRange, DashboardFigures {
  /** The version asked for; null for every version. */
  readonly version: string | null;
  /** The channel asked for; null for every channel. */
  readonly channel: string | null;
}

export interface StepFigures {
  readonly dialogId: string;
  readonly stepId: string;
  /** Conversations that reached the step (once each). */
  readonly reached: number;
  /** Conversations whose last step it was and that are over (no turn within the window since). */
  readonly stopped: number;
}

/** Reach and stops per step, as read from the counters. */
export interface DropOffFigures {
  readonly steps: readonly StepFigures[];
  /** Conversations still going (a turn within the window): not counted as stopped anywhere yet. */
  readonly open: number;
}

/** GET /studio/api/insights/drop-off. */
export interface DropOff extends ReportRange, DropOffFigures {
  readonly version: string;
  /** The channel asked for (conversations started on it); null for every channel. */
  readonly channel: string | null;
  /** INSIGHTS_WINDOW: a conversation with no turn for this long has stopped. */
  readonly windowMs: number;
}

/** GET /studio/api/insights/conversations: a page of the search, newest first. */
export interface ConversationSearchPage extends ReportRange {
  readonly conversations: readonly ConversationSummary[];
  readonly nextCursor: string | null;
  /** The search stopped at its budget: it read every conversation that started after this time. */
  readonly searchedBackTo?: number;
  /** With searchedBackTo: how many conversations it read. */
  readonly searchedConversations?: number;
}

/** An integration call as the integration log keeps it (secrets redacted). */
export interface IntegrationCallView {
  readonly at: number;
  readonly method: unknown;
  readonly url: unknown;
  readonly requestHeaders: unknown;
  readonly requestBody: unknown;
  readonly responseStatus: unknown;
  readonly responseBody: unknown;
  readonly durationMs: unknown;
  readonly error?: unknown;
}

export interface TranscriptMessage {
  readonly seq: number;
  readonly at: number;
  readonly from: 'user' | 'bot';
  /**
   * The channel it went through: that of the conversation it belongs to (the channel that
   * conversation started on), or the user's for a message of no conversation insights kept.
   */
  readonly channel: string;
  /** What a person reads of it (a text's words, a button's label); null for what has none. */
  readonly text: string | null;
  readonly message: Readonly<Record<string, unknown>>;
  /** The step that said it (bot) or that it answered (user); absent when there was none. */
  readonly dialogId?: string;
  readonly stepId?: string;
  readonly integrationCalls: readonly IntegrationCallView[];
}

/** GET /studio/api/insights/users/{userId}: a page of one user's transcript. */
export interface Transcript {
  readonly userId: string;
  readonly channel: string;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly conversations: readonly ConversationSummary[];
  readonly messages: readonly TranscriptMessage[];
  /**
   * The page events, triggers and timers of the user's conversations that happened while this
   * page's messages did (from the first message on, up to the next page's first; those before
   * the first message on the first page), oldest first: the studio places each among the messages.
   */
  readonly events: readonly ConversationEvent[];
  /** Pass as `afterSeq` for the next page; null when this was the last. */
  readonly nextAfterSeq: number | null;
}

/** DELETE /studio/api/insights/users/{userId}: what the erasure removed. */
export interface UserErased {
  readonly userId: string;
  readonly erased: { readonly user: number; readonly transcript: number; readonly jobs: number };
}
