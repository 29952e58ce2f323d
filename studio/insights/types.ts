/** What the studio's insights API answers (server/studio/http/insights-routes.ts; the OpenAPI document has them too). */

export interface Dashboard {
  readonly from: string;
  readonly to: string;
  readonly version: string | null;
  readonly daily: readonly {
    date: string;
    conversations: number;
    activeUsers: number;
    messagesUser: number;
    messagesBot: number;
  }[];
  readonly totals: { conversations: number; messagesUser: number; messagesBot: number };
  readonly dialogs: readonly { dialogId: string; started: number; completed: number }[];
  readonly unprocessed: readonly { text: string; count: number }[];
  readonly faq: { answered: number; missed: number; misses: readonly { text: string; count: number }[] };
  readonly integrations: readonly { status: string; calls: number; p50Ms: number; p95Ms: number }[];
  readonly urlClicks: readonly { domain: string; clicks: number }[];
  readonly sent: { emails: number; sms: number };
}

export interface StepFigures {
  readonly dialogId: string;
  readonly stepId: string;
  readonly reached: number;
  readonly stopped: number;
}

export interface DropOff {
  readonly from: string;
  readonly to: string;
  readonly version: string;
  readonly windowMs: number;
  readonly open: number;
  readonly steps: readonly StepFigures[];
}

export interface TranscriptEvent {
  readonly at: number;
  readonly kind: string;
  readonly name: string;
}

export interface ConversationSummary {
  readonly userId: string;
  readonly startedAt: number;
  readonly lastAt: number;
  readonly channel: string;
  readonly version: string;
  readonly steps: readonly string[];
  readonly lastStep: string | null;
  readonly integrationError: boolean;
  readonly messages: number;
  readonly text: string;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly events: readonly TranscriptEvent[];
}

export interface ConversationPage {
  readonly conversations: readonly ConversationSummary[];
  readonly nextCursor: string | null;
  /** The search stopped at its budget: it read every conversation that started after this time. */
  readonly searchedBackTo?: number;
  /** With searchedBackTo: how many conversations it read. */
  readonly searchedConversations?: number;
}

export interface TranscriptMessage {
  readonly seq: number;
  readonly at: number;
  readonly from: 'user' | 'bot';
  readonly text: string | null;
  readonly message: Readonly<Record<string, unknown>>;
  readonly dialogId?: string;
  readonly stepId?: string;
  readonly integrationCalls: readonly Readonly<Record<string, unknown>>[];
}

export interface Transcript {
  readonly userId: string;
  readonly channel: string;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly conversations: readonly ConversationSummary[];
  readonly messages: readonly TranscriptMessage[];
  /** Page events, triggers and timers during this page's messages, oldest first. */
  readonly events: readonly TranscriptEvent[];
  readonly nextAfterSeq: number | null;
}

export interface VersionList {
  readonly publishedId: string | null;
  readonly versions: readonly { id: string; message: string }[];
}

/** The last `days` UTC days up to today, as the API's from/to. */
export function lastDays(days: number, now = Date.now()): { from: string; to: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(now - (days - 1) * 86_400_000), to: day(now) };
}
