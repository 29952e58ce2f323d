import { runTurn, understandingNeeded } from '../engine/engine.ts';
import type { EngineInput, TurnResult, Understanding } from '../engine/types.ts';
import type { NewJob, NewTranscriptEntry, TranscriptEntry, UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { logWarnings, sendMessages } from './carry-out-effects.ts';
import { turnOutbox } from './turn-outbox.ts';
import { queueSyncIntegrations } from './run-integrations.ts';
import { trackLinks } from './track-links.ts';
import { messageText } from './export-records.ts';
import type { CountDelta } from '../ports/insights.ts';
import { advanceTrail, readTrail, summaryOf, TRAIL_KEY, type Trail } from './insights/trail.ts';
import { turnEventJobs } from './turn-events.ts';
import { checkDeadline, meetDeadline } from '../ports/deadline.ts';

const MAX_ATTEMPTS = 8;

export interface ApplyTurnOptions {
  readonly userWrote: boolean;
  /** The user's message that started the turn: stored in the same commit as the turn, once per clientId. */
  readonly userEntry?: NewTranscriptEntry;
  /** The user as the caller just read or wrote it; saves a read. A stale one only costs a retry. */
  readonly user?: UserRecord;
  /**
   * Changes to the user made before the engine runs, committed with the turn (a
   * trigger's data): applied to each fresh read, so a retried turn keeps them.
   */
  readonly adjust?: (user: UserRecord) => UserRecord;
  /**
   * The turn is this trigger's run: it commits the trigger mark (the later of the
   * stored one and `id`) with the state. `seenMark` is the mark the caller decided
   * on; a re-read after a conflict whose mark has since moved to `id` or beyond
   * means another worker ran this trigger meanwhile, and the turn is dropped.
   */
  readonly trigger?: { readonly id: string; readonly seenMark: string | null };
  /**
   * The turn answers the user's pending message with this seq (answer-pending.ts):
   * the commit clears the mark with the state, and a re-read that finds the mark
   * gone means another worker answered it meanwhile, and the turn is dropped.
   */
  readonly answersPending?: number;
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
  countStored(deps, entries);
  if (committed.insight && deps.insights) {
    const { trail, counts, version } = committed.insight;
    deps.insights.turn(
      userId,
      committed.user.preview !== undefined,
      counts,
      summaryOf(userId, trail, version, committed.user.userData),
    );
  }
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
  if (deps.insights) countSent(deps.insights, committed.user.preview !== undefined, result.effects, failed);
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
  | {
      readonly status: 'committed';
      readonly result: TurnResult;
      readonly user: UserRecord;
      readonly entries: readonly TranscriptEntry[];
      readonly insight?: { readonly trail: Trail; readonly counts: readonly CountDelta[]; readonly version: string };
      readonly jobs: readonly NewJob[];
    }
  | { readonly status: 'duplicate'; readonly entry: TranscriptEntry; readonly user: UserRecord }
  | RanElsewhere
> {
  // What the models made of the text, kept across retries: a retry starts from a fresh read of the
  // user, who may rest on another step than the copy the first try started from (a stale copy, or a
  // timer's turn in between), and needs what that step needs, not what the first try's step did.
  const models: ModelReadings = {};
  let known = options.user;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const read = known ?? (await deps.store.getUser(userId));
    known = undefined;
    if (!read) throw new Error(`user ${userId} does not exist`);
    const { trigger } = options;
    if (
      trigger &&
      read.lastTrigger !== trigger.seenMark &&
      read.lastTrigger !== null &&
      read.lastTrigger >= trigger.id
    ) {
      return { status: 'ran-elsewhere' };
    }
    if (options.answersPending !== undefined && read.pendingSeq !== options.answersPending)
      return { status: 'ran-elsewhere' };
    const user = options.adjust ? options.adjust(read) : read;
    const understood = await understand(deps, user, input, models);
    const result = runTurn(deps.definition, user, understood, { moves: deps.moves });
    const snapshots = result.effects.filter((e) => e.type === 'snapshotUserData');
    const events = result.effects.flatMap((e) => (e.type === 'botEvent' ? [{ name: e.name, payload: e.payload }] : []));
    // A channel that reads back what it missed keeps the bot's events too, after the turn's messages.
    const kept = events.length > 0 ? (deps.delivery.eventMessages?.(user, events) ?? []) : [];
    const outputs = [...trackLinks(deps, userId, result.outputs), ...kept];
    const insight = deps.insights
      ? insightOf(deps.insights, user, input, result, result.outputs.length, now, options)
      : undefined;
    const firstSeq = user.lastSeq + (options.userEntry ? 2 : 1);
    const outbox = turnOutbox(deps, userId, result.effects, now);
    const handedOff =
      deps.delivery.handOff?.(user, { firstSeq, lastSeq: firstSeq + outputs.length - 1, at: now, events }) ?? [];
    const eventJobs = turnEventJobs(
      deps,
      user,
      {
        before: read,
        input: understood,
        result,
        storesEntries: options.userEntry !== undefined || outputs.length > 0,
        ...(trigger ? { trigger } : {}),
        botEntries: { first: firstSeq, last: firstSeq + outputs.length - 1 },
      },
      now,
    );
    const jobs = [...outbox.jobs, ...handedOff, ...eventJobs];
    // A visitor waits on a message's turn (turn-deadline.ts): past its deadline they were asked to send again, so no commit starts.
    if (options.userEntry) checkDeadline();
    const outcome = await deps.store.commitTurn({
      userId,
      expectedVersion: user.version,
      patch: {
        position: result.state.position,
        // The conversation's trail for insights rides along in the variables: no write of its own.
        variables: insight ? { ...result.state.variables, [TRAIL_KEY]: insight.trail } : result.state.variables,
        userData: result.state.userData,
        ...(options.userWrote ? { lastMessageAt: now } : {}),
        ...(trigger ? { lastTrigger: laterOf(read.lastTrigger, trigger.id) } : {}),
      },
      now,
      ...(options.userEntry ? { userEntry: options.userEntry } : {}),
      snapshots: snapshots.map((s) => ({ userId, timestamp: now, data: s.data })),
      botEntries: outputs.map((message, index) => {
        // The step that said it, for the transcript export; the event messages after the outputs have none.
        const origin = result.origins?.[index];
        return origin
          ? { from: 'bot' as const, at: now, message, dialogId: origin.dialogId, stepId: origin.stepId }
          : { from: 'bot' as const, at: now, message };
      }),
      ...(jobs.length > 0 ? { jobs } : {}),
      ...(outbox.cancelJobs.length > 0 ? { cancelJobs: outbox.cancelJobs } : {}),
      ...(outbox.logs.length > 0 ? { logs: outbox.logs } : {}),
      ...(options.answersPending !== undefined ? { answersPending: options.answersPending } : {}),
    });
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
    if (outcome.status === 'committed')
      return {
        status: 'committed',
        result,
        user: outcome.user,
        entries: outcome.entries,
        jobs,
        ...(insight ? { insight } : {}),
      };
  }
  throw new Error(`user ${userId} kept changing under ${MAX_ATTEMPTS} attempts to run a turn`);
}

/** What the turn tells insights: the conversation's trail after it, and the counters it moves. */
function insightOf(
  insights: NonNullable<AppDeps['insights']>,
  user: UserRecord,
  input: EngineInput,
  result: TurnResult,
  botMessages: number,
  now: number,
  options: ApplyTurnOptions,
): { trail: Trail; counts: CountDelta[]; version: string } {
  const before = user.variables[TRAIL_KEY];
  const previous = readTrail(before);
  const since = previous && now - previous.l < insights.windowMs ? previous.c : now;
  const version = insights.version();
  const userText = options.userWrote && options.userEntry ? messageText(options.userEntry.message) : null;
  const event =
    input.kind === 'pageEvent'
      ? { kind: 'pageEvent' as const, name: input.name }
      : options.trigger && input.kind === 'start'
        ? { kind: 'trigger' as const, name: input.dialogId }
        : input.kind === 'timer'
          ? { kind: 'timer' as const, name: input.timerId }
          : undefined;
  const { trail, counts } = advanceTrail({
    now,
    version,
    windowMs: insights.windowMs,
    channel: user.channelId,
    before,
    lastMessageAt: user.lastMessageAt,
    userText,
    userWrote: options.userWrote,
    botMessages,
    visits: result.visits ?? [],
    completed: result.trail.flatMap((m) => (m.kind === 'dialogCompleted' ? [m.dialogId] : [])),
    effects: result.effects,
    ...(event ? { event } : {}),
    integrationFailed: (input.kind === 'integrationResult' && !input.ok) || insights.failedSince(user.userId, since),
  });
  return { trail, counts, version };
}

/** Emails and SMS the turn sent: its email and sms effects, less those that failed. */
function countSent(
  insights: NonNullable<AppDeps['insights']>,
  preview: boolean,
  effects: TurnResult['effects'],
  failed: readonly { dialogId: string; stepId: string }[],
): void {
  let emails = 0;
  let sms = 0;
  for (const effect of effects) {
    if (effect.type !== 'email' && effect.type !== 'sms') continue;
    if (failed.some((f) => f.dialogId === effect.dialogId && f.stepId === effect.stepId)) continue;
    if (effect.type === 'email') emails++;
    else sms++;
  }
  if (emails > 0 || sms > 0) insights.sent(preview, emails, sms);
}

/** The mark never moves back: a trigger that runs late (see trigger-dialog.ts) leaves it where it was. */
function laterOf(mark: string | null, id: string): string {
  return mark !== null && mark > id ? mark : id;
}

/** Messages stored, for /metrics: every path that stores transcript entries counts them here. */
export function countStored(deps: AppDeps, entries: readonly TranscriptEntry[]): void {
  if (!deps.metrics) return;
  let user = 0;
  for (const entry of entries) if (entry.from === 'user') user++;
  if (user) deps.metrics.messagesStored('user', user);
  if (entries.length - user) deps.metrics.messagesStored('bot', entries.length - user);
}

/** Each model's reading of one turn's text, once it ran (a failed classifier reads as nothing). */
interface ModelReadings {
  nlp?: { readonly value: Understanding['nlp'] };
  faq?: { readonly value: Understanding['faq'] };
}

/**
 * Runs the intent classifier / FAQ matcher on the text when, and only when, the turn will use them
 * from where `user` rests; each runs at most once a turn (`models` keeps what they said for a retry).
 */
async function understand(
  deps: AppDeps,
  user: UserRecord,
  input: EngineInput,
  models: ModelReadings,
): Promise<EngineInput> {
  if (input.kind !== 'text' && input.kind !== 'postback') return input;
  const needed = understandingNeeded(deps.definition, user, input);
  if (!needed.nlp && !needed.faq) return input;
  const text = input.kind === 'text' ? input.text : input.payload;
  if (needed.nlp && deps.classifier && !models.nlp) {
    try {
      models.nlp = { value: await deps.classifier.classify(text) };
    } catch (error) {
      models.nlp = { value: undefined };
      deps.logger.error(
        { userId: user.userId, err: error },
        'the intent classifier failed; the text is treated as unprocessed',
      );
    }
  }
  if (needed.faq && deps.faq && !models.faq) models.faq = { value: await deps.faq.match(text) };
  const understanding: { -readonly [K in keyof Understanding]: Understanding[K] } = {};
  if (needed.nlp && models.nlp?.value !== undefined) understanding.nlp = models.nlp.value;
  if (needed.faq && models.faq?.value !== undefined) understanding.faq = models.faq.value;
  return { ...input, understanding };
}
