/**
 * What the product holds about a person, as the store sees it: erasing one
 * user (right to erasure), purging what is older than the retention settings,
 * and reading every known user and every transcript entry for the exports.
 * Both store adapters implement it; `stores/contract/personal-data-cases.ts`
 * pins the behaviour.
 */
import type { LogKind } from './log-kinds.ts';
import type { RangeQuery, RangeRead } from './range-read.ts';

/** What one erasure removed, by kind of record; all zero when the user was already gone. */
export interface ErasureReport {
  /** 1 when the user row was removed, else 0 (app/erase-user.ts adds one per linked address of a person). */
  readonly user: number;
  readonly transcript: number;
  /** Log rows by kind (user-data snapshots included). Every kind is listed, zeros too. */
  readonly logs: Readonly<Record<LogKind, number>>;
  /** Durable jobs naming the user: timers, triggers, asynchronous integration calls, channel callbacks. */
  readonly jobs: number;
}

/** Cut-offs (epoch ms): records strictly older are removed. An absent cut-off keeps everything of its kind. */
export interface RetentionCutoffs {
  readonly transcriptBefore?: number;
  readonly logsBefore?: Readonly<Partial<Record<LogKind, number>>>;
}

export interface PurgeReport {
  readonly transcript: number;
  readonly logs: Readonly<Record<LogKind, number>>;
}

/** A user as the userData export lists every known user. */
export interface KnownUserRow {
  readonly userId: string;
  /**
   * The time of the user's last message (spec 4.1 rule 1), or of their creation when they
   * never wrote. Bot activity (triggers, timers, the bot's own messages) never moves it.
   */
  readonly timestamp: number;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly cursor: string;
  /** `userData` as JSON.stringify wrote it, when the store keeps that text (see LogEntry.dataJson). */
  readonly userDataJson?: string;
}

/** One transcript entry as the transcript export lists it. */
export interface TranscriptExportRow {
  readonly userId: string;
  readonly seq: number;
  readonly from: 'user' | 'bot';
  readonly at: number;
  readonly message: Readonly<Record<string, unknown>>;
  /** The dialog and step that said a bot message; null for the user's and for those no step said (or stored before they were recorded). */
  readonly dialogId: string | null;
  readonly stepId: string | null;
  readonly cursor: string;
}

/** Where a job payload names its user: `userId` (timers, triggers), `user` (channel callbacks), `context.userId` (integration calls). */
export function jobPayloadUser(payload: Readonly<Record<string, unknown>>): string | undefined {
  const context = payload.context;
  const candidates = [
    payload.userId,
    payload.user,
    typeof context === 'object' && context !== null ? (context as Record<string, unknown>).userId : undefined,
  ];
  return candidates.find((value): value is string => typeof value === 'string');
}

export interface PersonalDataStore {
  /**
   * Removes everything stored about the user: user row, transcript, log rows of
   * every kind (snapshots included) and the jobs naming them. Idempotent: a
   * second call finds nothing and reports zeros.
   */
  eraseUser(userId: string): Promise<ErasureReport>;
  /** Removes transcript entries and log rows older than their cut-off; nothing newer is touched. */
  purgeOlderThan(cutoffs: RetentionCutoffs): Promise<PurgeReport>;
  /** Every user, whether they wrote or not, by `timestamp` (last message, else creation) then creation order; never a preview user (ports/preview.ts). */
  exportKnownUsers(query: RangeQuery): RangeRead<KnownUserRow>;
  /** Every transcript entry of every user but preview users whose time is in the range, by time (ties in a stable order). */
  exportTranscript(query: RangeQuery): RangeRead<TranscriptExportRow>;
}

export function emptyLogCounts(kinds: readonly LogKind[]): Record<LogKind, number> {
  return Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<LogKind, number>;
}
