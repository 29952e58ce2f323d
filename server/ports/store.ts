/**
 * The storage port: everything the product persists, as plain objects.
 *
 * Times are UNIX epoch milliseconds (numbers) everywhere in this port; the
 * management API turns them into ISO 8601 strings at its edge. Time ranges are
 * half-open: `fromMs <= t < toMs`. Adapters: `stores/sqlite` (embedded default)
 * and `stores/mongo`; both must pass `stores/contract.test.ts`.
 */
import type { Leases } from './leases.ts';
import type { LogKind } from './log-kinds.ts';
import type { PersonalDataStore } from './personal-data.ts';
import type { PreviewMark } from './preview.ts';
import type { RangeQuery, RangeRead } from './range-read.ts';

// Part of this port's vocabulary, in files of their own so that personal-data.ts can use them without
// importing the Store that extends it.
export { LOG_KINDS, type LogKind } from './log-kinds.ts';
export type { RangeQuery, RangeRead } from './range-read.ts';

/** Where a user stands in the conversation tree, as the engine left it. */
export interface ConversationPosition {
  readonly dialogId: string;
  readonly stepId: string;
  /** True when the step is waiting for the user's input. */
  readonly awaiting: boolean;
  /** Retries used on the current input step. */
  readonly retries: number;
}

export interface UserRecord {
  readonly userId: string;
  readonly channelId: string;
  readonly position: ConversationPosition | null;
  /** Conversation variables: scratch space of the tree, not exported. */
  readonly variables: Readonly<Record<string, unknown>>;
  /** User-data storages declared by the bot definition: what the userData export returns. */
  readonly userData: Readonly<Record<string, unknown>>;
  /** Time of the user's last message, or null when the user never wrote. */
  readonly lastMessageAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Incremented by every successful update; the optimistic-concurrency token. */
  readonly version: number;
  /** Highest transcript sequence number handed out for this user (0 = none). */
  readonly lastSeq: number;
  /**
   * Id of the latest trigger job whose dialog this user's state includes, or null.
   * Trigger ids sort by acceptance and run in that order per user, so every
   * trigger up to this id has been applied (or given up): a job taken over
   * after a crash finds its own run already here and does not run again.
   */
  readonly lastTrigger: string | null;
  /**
   * Seq of the user's message that is stored but whose turn failed (see
   * `storePending`); absent when no message waits for its answer. The turn is
   * run again once, and the commit that answers it (`answersPending`) clears it.
   */
  readonly pendingSeq?: number;
  /** Set on a studio author's preview user only (ports/preview.ts): never exported or counted. */
  readonly preview?: PreviewMark;
}

export interface NewUser {
  readonly userId: string;
  readonly channelId: string;
  readonly userData?: Readonly<Record<string, unknown>>;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly now: number;
  /** Marks the user as a studio author's preview user (ports/preview.ts); written once, at creation. */
  readonly preview?: PreviewMark;
}

/** Fields an update may replace. Omitted fields stay as they are. */
export interface UserPatch {
  readonly position?: ConversationPosition | null;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly userData?: Readonly<Record<string, unknown>>;
  readonly lastMessageAt?: number | null;
  /** Written with the turn that ran the trigger, so the run and its mark are one write. */
  readonly lastTrigger?: string;
  /** null gives up on the pending message (its second run failed too): the mark is cleared. */
  readonly pendingSeq?: null;
}

/** A message in a user's transcript, from either side. */
export interface TranscriptEntry {
  readonly userId: string;
  /** Per-user sequence number, 1, 2, 3, … with no gaps. */
  readonly seq: number;
  readonly from: 'user' | 'bot';
  /** The widget's id for a user message; the store keeps one entry per (userId, clientId). */
  readonly clientId: string | null;
  readonly at: number;
  /** The message itself, as the shared protocol defines it. Opaque to the store. */
  readonly message: Readonly<Record<string, unknown>>;
  /** The dialog and step that said a bot message (both or neither); absent on the user's and on those no step said. */
  readonly dialogId?: string;
  readonly stepId?: string;
}

export interface NewTranscriptEntry {
  readonly from: 'user' | 'bot';
  readonly clientId?: string | null;
  readonly at: number;
  readonly message: Readonly<Record<string, unknown>>;
  /** Where a bot message came from (both or neither), for the transcript export. */
  readonly dialogId?: string;
  readonly stepId?: string;
}

export interface NewLogEntry {
  readonly userId: string;
  readonly timestamp: number;
  /** The record's fields other than userId and timestamp. */
  readonly data: Readonly<Record<string, unknown>>;
}

export interface LogEntry extends NewLogEntry {
  /** Opaque position of this entry in (timestamp, insertion) order; pass it back as `after`. */
  readonly cursor: string;
  /**
   * `data` as the store holds it, when it keeps it as JSON.stringify's text (SQLite): exactly
   * JSON.stringify(data). An export writes it through instead of writing `data` again.
   */
  readonly dataJson?: string;
}

export interface UserExportRow {
  readonly userId: string;
  /** lastMessageAt of the user: exports include only users who wrote. */
  readonly timestamp: number;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly cursor: string;
}

export type JobStatus = 'pending' | 'running' | 'done' | 'dead' | 'cancelled';

/** Where an unfinished job of a group stands (Store.firstUnfinishedJob): enough to wait for it. */
export type UnfinishedJob = Pick<Job, 'id' | 'group' | 'status' | 'runAt' | 'leaseOwner' | 'leaseUntil'>;

export interface NewJob {
  /** Stable id: scheduling the same id again replaces a job that has not started. */
  readonly id: string;
  readonly kind: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly runAt: number;
  /** Attempts before the job is dead. Default 1 (no retry). */
  readonly maxAttempts?: number;
  /**
   * Jobs that must run one after another in id order (e.g. one user's triggers):
   * see `firstUnfinishedJob`. None when omitted.
   */
  readonly group?: string;
  /**
   * Written already claimed: running its first attempt for `owner` until `until`.
   * A scheduler with a free slot runs a job it accepts at once, without a claim.
   */
  readonly lease?: { readonly owner: string; readonly until: number };
}

export interface Job {
  readonly id: string;
  readonly kind: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly runAt: number;
  readonly status: JobStatus;
  /** Attempts started so far, including the one a claim starts. */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly group: string | null;
  readonly leaseOwner: string | null;
  readonly leaseUntil: number | null;
  readonly lastError: string | null;
}

export interface DueJobs {
  readonly kind: string;
  readonly count: number;
  readonly oldestRunAt: number;
}

export interface ClaimRequest {
  readonly workerId: string;
  readonly now: number;
  readonly leaseMs: number;
  readonly limit: number;
  /** Only jobs of these kinds; all kinds when omitted. */
  readonly kinds?: readonly string[];
}

export interface DatasetRow {
  readonly id: string;
  readonly tags: readonly string[];
  readonly lat: number | null;
  readonly lon: number | null;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface DatasetInfo {
  readonly name: string;
  readonly rowCount: number;
  /** When the rows last changed. */
  readonly updatedAt: number;
}

/**
 * One whole turn, written as one unit: the user's message (when a message
 * started the turn), the turn's user-data snapshots, the new state of the
 * user (compare-and-set on `expectedVersion`), the bot's answers, and the
 * turn's outbox.
 *
 * The outbox (`jobs`, `cancelJobs`, `logs`) is every durable effect of the turn
 * besides its state and messages: the timers it starts or stops, the
 * asynchronous integration calls and channel callbacks it hands on, the log rows
 * it writes. It is stored exactly when the turn is: in the turn's transaction
 * (SQLite), or in the one write of the user document that is the turn's commit
 * point, then moved into the jobs and logs collections (MongoDB, see
 * stores/mongo/turn-outbox.ts). A crash can delay an outbox item, never lose it
 * nor store it for a turn that did not commit. A new kind of durable effect rides
 * here too: it is a job (its handler does the work) or a log row.
 */
export interface TurnCommit {
  readonly userId: string;
  /** The version the turn was computed from; nothing is written when the stored one differs. */
  readonly expectedVersion: number;
  readonly patch: UserPatch;
  readonly now: number;
  /** The user's message that started the turn; a clientId already stored makes the whole commit a duplicate. */
  readonly userEntry?: NewTranscriptEntry;
  /** userDataSnapshot log rows, stored before the state that may clear the data. */
  readonly snapshots?: readonly NewLogEntry[];
  /** The bot's messages, stored after the user's entry, with the next sequence numbers. */
  readonly botEntries: readonly NewTranscriptEntry[];
  /**
   * Outbox: jobs the turn starts (a wait step's timer, an asynchronous integration call,
   * a channel's callback), scheduled as `Store.scheduleJob` would, exactly when the turn
   * is committed. Their handlers may still run twice (a lease taken over), never for a
   * turn that was not stored.
   */
  readonly jobs?: readonly NewJob[];
  /** Outbox: ids of jobs the turn stops (a wait step left), cancelled as `Store.cancelJob` would, before `jobs` are scheduled. */
  readonly cancelJobs?: readonly string[];
  /**
   * The job that ran this turn (a channel's inbound event), finished with it as `Store.completeJob`
   * would: in the turn's transaction where the store has one (no commit of its own), else right
   * after the turn's write (a crash in between runs the job again, and it finds its turn stored).
   */
  readonly completeJobs?: readonly { readonly id: string; readonly workerId: string }[];
  /** Outbox: log rows of the turn (nlpLog, fuzzyQuestionAnswerLog), stored exactly once with it. */
  readonly logs?: readonly { readonly kind: LogKind; readonly entry: NewLogEntry }[];
  /** The turn answers the pending message with this seq: the mark is cleared in the same write as the state. */
  readonly answersPending?: number;
}

export type TurnCommitResult =
  /** Everything was stored; `entries` holds the user's entry (when given) then the bot's, as stored. */
  | { readonly status: 'committed'; readonly user: UserRecord; readonly entries: readonly TranscriptEntry[] }
  /** The user changed since `expectedVersion` (or is gone): nothing was stored; read again and redo the turn. */
  | { readonly status: 'conflict' }
  /** The user entry's clientId is already stored: nothing was stored; `entry` is the stored one. */
  | { readonly status: 'duplicate'; readonly entry: TranscriptEntry };

/** The store also holds personal data in the sense of ports/personal-data.ts: erasure, retention, full exports. */
export interface Store extends Leases, PersonalDataStore {
  /** Resolves when the store answers; rejects with the reason otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;

  // Users
  getUser(userId: string): Promise<UserRecord | null>;
  /** Creates the user, or returns the existing one unchanged (never overwrites). */
  ensureUser(user: NewUser): Promise<UserRecord>;
  /**
   * Applies the patch only if the stored version still equals `expectedVersion`.
   * Returns the updated user, or null when another writer got there first
   * (the caller reads again and retries) or the user does not exist.
   */
  updateUser(userId: string, expectedVersion: number, patch: UserPatch, now: number): Promise<UserRecord | null>;
  /**
   * Stores a whole turn (see TurnCommit) at once: in one transaction where the
   * store has them, else under the user's lock in the order user entry,
   * snapshots, state, bot entries (a crash in between leaves what
   * appendTranscript, appendLogs, updateUser, appendTranscript would leave).
   */
  commitTurn(commit: TurnCommit): Promise<TurnCommitResult>;
  /** Users who wrote in the range, by lastMessageAt then creation order; never a preview user. */
  exportUsers(query: RangeQuery): AsyncIterable<UserExportRow>;
  /** The ids of every preview user (UserRecord.preview): few, as each is erased with its draft's previews. */
  previewUsers(): Promise<string[]>;

  // Transcript
  /**
   * Appends entries with the next sequence numbers of this user. A user entry
   * whose clientId is already stored is not stored again: the stored entry is
   * returned in its place with `duplicate: true`.
   */
  appendTranscript(
    userId: string,
    entries: readonly NewTranscriptEntry[],
  ): Promise<ReadonlyArray<TranscriptEntry & { readonly duplicate: boolean }>>;
  /**
   * Stores the user's message alone, marked pending (`UserRecord.pendingSeq`)
   * in the same write, which also moves the user's version (a copy read before
   * knows neither, and a turn committed against it is a conflict): its turn
   * failed, and is to run again. A clientId already stored is returned with
   * `duplicate: true` and changes nothing.
   */
  storePending(userId: string, entry: NewTranscriptEntry): Promise<TranscriptEntry & { readonly duplicate: boolean }>;
  /** Entries with seq > afterSeq, ascending, at most `limit`. */
  readTranscript(userId: string, afterSeq: number, limit: number): Promise<TranscriptEntry[]>;
  /**
   * What a returning widget needs when it connects: the user (null when unknown) and the
   * entries after `afterSeq` (as readTranscript), with one read of the user. A reconnect
   * storm after a restart is hundreds of these at once: each read of the user saved is a
   * round trip per widget (bench/restart-round-trips.ts).
   */
  readReturning(
    userId: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ user: UserRecord | null; missed: TranscriptEntry[] }>;

  // Logs and snapshots
  appendLog(kind: LogKind, entry: NewLogEntry): Promise<void>;
  appendLogs(kind: LogKind, entries: readonly NewLogEntry[]): Promise<void>;
  /** Entries in the range, by timestamp then insertion order. */
  readLogs(kind: LogKind, query: RangeQuery): RangeRead<LogEntry>;

  // Durable jobs and timers
  /** Schedules a job; replaces a pending job with the same id, keeps a running one. */
  /** False when a running job with this id was kept and nothing was written. */
  scheduleJob(job: NewJob): Promise<boolean>;
  getJob(id: string): Promise<Job | null>;
  /** Cancels a job that has not finished. Returns true when one was cancelled. */
  cancelJob(id: string): Promise<boolean>;
  /**
   * Claims due jobs: pending with runAt <= now, or running with an expired lease.
   * Each job is claimed by exactly one worker; a claim starts an attempt.
   */
  claimJobs(request: ClaimRequest): Promise<Job[]>;
  /**
   * The first job of `group`, by id, with `afterId < id < beforeId` that has not
   * finished (pending or running), or null. Done, dead and cancelled jobs never
   * count: a job given up on does not hold back the ones after it. With
   * `through`, `beforeId` itself counts too (`id <= beforeId`): a running job
   * asking with its own id learns in the same read whether its row is still
   * there (null: it was erased, cancelled or finished elsewhere). Only where the
   * job stands comes back (UnfinishedJob), not its payload: a grouped job asks on
   * every run, and the rest of the row would be read and parsed for nothing.
   */
  firstUnfinishedJob(
    group: string,
    afterId: string,
    beforeId: string,
    through?: boolean,
  ): Promise<UnfinishedJob | null>;
  /**
   * Puts a claimed job back as pending at `runAt` without using up the attempt
   * its claim started (it waited, it did not fail). False when the worker no
   * longer holds the lease.
   */
  deferJob(id: string, workerId: string, runAt: number): Promise<boolean>;
  /** Marks a claimed job done. False when the worker no longer holds the lease. */
  completeJob(id: string, workerId: string): Promise<boolean>;
  /**
   * Records a failed attempt: back to pending at `retryAt` while attempts remain,
   * else dead; dead at once when `retryAt` is null (the job cannot succeed by trying
   * again). False when the worker no longer holds the lease.
   */
  failJob(id: string, workerId: string, error: string, retryAt: number | null): Promise<boolean>;
  /** Jobs due (pending with runAt <= now), by kind, with the runAt of the oldest: the queue's depth and age, for /metrics. */
  dueJobs(now: number): Promise<readonly DueJobs[]>;
  /**
   * Removes finished jobs (done, dead, cancelled) whose runAt is before `before` (ms), in small
   * batches so the store stays free for other writes, and stops once `limit` are removed (a
   * caller under a lease comes back for the rest); pending and running jobs are never touched.
   * Returns how many were removed: `limit` or more means some may be left.
   */
  purgeFinishedJobs(before: number, limit: number): Promise<number>;

  // Background datasets
  /** Replaces all rows of the dataset at once: readers see the old rows or the new, never a mix. */
  replaceDataset(name: string, rows: readonly DatasetRow[], now: number): Promise<void>;
  upsertDatasetRows(name: string, rows: readonly DatasetRow[], now: number): Promise<void>;
  deleteDatasetRows(name: string, ids: readonly string[], now: number): Promise<void>;
  readDataset(name: string): Promise<DatasetRow[]>;
  datasetInfo(name: string): Promise<DatasetInfo | null>;
}
