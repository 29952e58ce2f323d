import { runTurn } from '../engine/engine.ts';
import type { EngineInput, TurnResult } from '../engine/turn/types.ts';
import type { NewJob, TranscriptEntry, UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { logWarnings, sendMessages } from './carry-out-effects.ts';
import { keepLinkCodes } from './keep-link-codes.ts';
import { drawLinkCode, linksChannels } from './link-code.ts';
import { queueSyncIntegrations } from './run-integrations.ts';
import { followTurn, type TurnObservation } from './observe-turn.ts';
import { turnCommit, type CommitOptions } from './turn-commit.ts';
import { understand, type ModelReadings } from './understand-text.ts';
import { checkDeadline, meetDeadline } from '../ports/deadline.ts';

const MAX_ATTEMPTS = 8;

export interface ApplyTurnOptions extends CommitOptions {
  /** The user as the caller just read or wrote it; saves a read. A stale one only costs a retry. */
  readonly user?: UserRecord;
  /**
   * Changes to the user made before the engine runs, committed with the turn (a
   * trigger's data): applied to each fresh read, so a retried turn keeps them.
   */
  readonly adjust?: (user: UserRecord) => UserRecord;
  /** Told the moment `userEntry` is stored (now, or found stored before), ahead of the turn's emails and SMS. */
  readonly stored?: (ran: { readonly seq: number; readonly duplicate: boolean }) => void;
}

export type TurnOutcome =
  | { readonly status: 'committed'; readonly user: UserRecord; readonly entries: readonly TranscriptEntry[] }
  | {
      readonly status: 'duplicate';
      readonly entry: TranscriptEntry;
      /** The user as the turn read them before it found the message stored (absent when a pending store found it). */
      readonly user?: UserRecord;
    };

/** The trigger the turn was to run was run by another worker meanwhile: nothing was stored. */
export interface RanElsewhere {
  readonly status: 'ran-elsewhere';
}

/** Only a trigger's turn or a pending message's can find its work done elsewhere. */
export type OutcomeOf<O extends ApplyTurnOptions> = O extends
  { readonly trigger: object } | { readonly answersPending: number }
  ? TurnOutcome | RanElsewhere
  : TurnOutcome;

/**
 * Runs one engine turn for a user and carries out what it asks: models read
 * the text first (only when the turn needs them), then the user's message,
 * snapshots, new state, the bot's messages and the turn's outbox (timers, async
 * calls, log rows: turn-outbox.ts) are stored in one commit; then the messages
 * are pushed, events sent, and email / SMS go out. Callers hold the user's turn
 * lock (deps.turns).
 */
export async function applyTurn<O extends ApplyTurnOptions>(
  deps: AppDeps,
  userId: string,
  input: EngineInput,
  now: number,
  options: O,
): Promise<OutcomeOf<O>> {
  const started = performance.now();
  const committed = await commitTurn(deps, userId, input, now, options);
  if (committed.status !== 'committed') return committed as OutcomeOf<O>;
  const { result, entries } = committed;
  // Before the code is shown, so that it works the moment the user reads it.
  await keepLinkCodes(deps, committed.user, result.effects, now).catch((error: unknown) =>
    deps.logger.error(
      { event: 'link_code_unkept', userId, err: error },
      'a link code could not be kept; it will not work',
    ),
  );
  countStored(deps, entries);
  committed.observation.committed(committed.user);
  // The messages are stored already: show them before the bookkeeping below.
  if (entries.length > 0) deps.delivery.deliver(userId, entries);
  deps.metrics?.turnCompleted?.(input.kind, (performance.now() - started) / 1000);
  if (committed.jobs.length > 0) deps.scheduler.committed?.(committed.jobs);
  logWarnings(deps, userId, result.effects);
  // After the messages, so "Goodbye!" shows before a close-chat event runs.
  for (const effect of result.effects) {
    if (effect.type === 'botEvent') deps.delivery.event(userId, { name: effect.name, payload: effect.payload });
  }
  const failed = await sendMessages(deps, userId, result.effects, now);
  followTurn(deps, committed.user, result.effects, failed);
  let user = committed.user;
  let all = entries;
  for (const step of failed) {
    const more = await applyTurn(
      deps,
      userId,
      { kind: 'failed', dialogId: step.dialogId, stepId: step.stepId },
      deps.clock.now(),
      { userWrote: false, user },
    );
    if (more.status === 'committed') {
      user = more.user;
      all = [...all, ...more.entries];
    }
  }
  // A synchronous integration step: its call runs as the user's next task, so this turn ends now.
  queueSyncIntegrations(deps, userId, result.effects, applyTurn);
  return { status: 'committed', user, entries: all } as OutcomeOf<O>;
}

/** A try of the turn that was committed, with what the rest of the turn needs of it. */
interface CommittedTry {
  readonly status: 'committed';
  readonly result: TurnResult;
  readonly user: UserRecord;
  readonly entries: readonly TranscriptEntry[];
  readonly jobs: readonly NewJob[];
  readonly observation: TurnObservation;
}

/**
 * Read, run, commit with optimistic concurrency; redo on a conflict. The
 * store writes the turn as one unit (user entry, snapshots before the state
 * that may clear the data, state, bot messages), so the state is persisted
 * with every turn and a conflicting writer never loses an update.
 */
async function commitTurn(
  deps: AppDeps,
  userId: string,
  input: EngineInput,
  now: number,
  options: ApplyTurnOptions,
): Promise<
  | CommittedTry
  | { readonly status: 'duplicate'; readonly entry: TranscriptEntry; readonly user: UserRecord }
  | RanElsewhere
> {
  // What the models made of the text, kept across retries: a retry starts from a fresh read of the
  // user, who may rest on another step than the copy the first try started from (a stale copy, or a
  // timer's turn in between), and needs what that step needs, not what the first try's step did.
  const models: ModelReadings = {};
  // Drawn once for every try: a retried turn shows the same code.
  const linkCode = linksChannels(deps.definition) ? drawLinkCode() : undefined;
  let known = options.user;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const read = known ?? (await deps.store.getUser(userId));
    known = undefined;
    if (!read) throw new Error(`user ${userId} does not exist`);
    if (ranElsewhere(read, options)) return { status: 'ran-elsewhere' };
    const user = options.adjust ? options.adjust(read) : read;
    const understood = await understand(deps, user, input, models);
    const result = runTurn(deps.definition, user, understood, { moves: deps.moves, ...(linkCode ? { linkCode } : {}) });
    const { commit, jobs, observation } = turnCommit(deps, { read, user, input: understood, result, now }, options);
    // A visitor waits on a message's turn (turn-deadline.ts): past its deadline they were asked to send again, so no commit starts.
    if (options.userEntry) checkDeadline();
    const outcome = await deps.store.commitTurn(commit);
    // The message is stored (now or before): the visitor's answer no longer depends on the deadline.
    if (outcome.status !== 'conflict' && options.userEntry) {
      meetDeadline();
      const own =
        outcome.status === 'duplicate'
          ? outcome.entry
          : outcome.entries.find((e) => e.from === 'user' && e.clientId === options.userEntry?.clientId);
      if (own) options.stored?.({ seq: own.seq, duplicate: outcome.status === 'duplicate' });
    }
    if (outcome.status === 'duplicate') return { ...outcome, user: read };
    if (outcome.status === 'committed') return { ...outcome, result, jobs, observation };
  }
  throw new Error(`user ${userId} kept changing under ${MAX_ATTEMPTS} attempts to run a turn`);
}

/** A trigger's run or a pending message's answer that another worker took care of meanwhile. */
function ranElsewhere(read: UserRecord, options: ApplyTurnOptions): boolean {
  const { trigger } = options;
  if (trigger && read.lastTrigger !== trigger.seenMark && read.lastTrigger !== null && read.lastTrigger >= trigger.id)
    return true;
  return options.answersPending !== undefined && read.pendingSeq !== options.answersPending;
}

/** Messages stored, for /metrics: every path that stores transcript entries counts them here. */
export function countStored(deps: AppDeps, entries: readonly TranscriptEntry[]): void {
  if (!deps.metrics) return;
  let user = 0;
  for (const entry of entries) if (entry.from === 'user') user++;
  if (user) deps.metrics.messagesStored('user', user);
  if (entries.length - user) deps.metrics.messagesStored('bot', entries.length - user);
}
