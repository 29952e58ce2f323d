import type { Effect, EngineInput, TurnResult } from '../engine/turn/types.ts';
import type { NewJob, NewTranscriptEntry, UserRecord } from '../ports/store.ts';
import type { TurnEvent, TurnObserver } from '../ports/turn-observer.ts';
import type { AppDeps } from './deps.ts';
import { messageText } from './export-records.ts';
import { turnEventJobs } from './bot-events.ts';

/** One try of a turn, run and about to be committed. */
export interface TurnTry {
  /** The user as stored before the turn. */
  readonly read: UserRecord;
  /** The user the turn ran on (a trigger's data applied). */
  readonly user: UserRecord;
  readonly input: EngineInput;
  readonly result: TurnResult;
  readonly now: number;
  readonly userWrote: boolean;
  readonly userEntry?: NewTranscriptEntry;
  /** The turn is this trigger's run. */
  readonly trigger?: { readonly id: string };
  /** The channel the turn came in on, when not the user's own (CommitOptions.channelId). */
  readonly channelId?: string;
  /** The seqs the turn's bot entries get (none when first > last). */
  readonly botEntries: { readonly first: number; readonly last: number };
}

/** What the turn's commit carries for those who hear of turns, and how to tell them it was committed. */
export interface TurnObservation {
  /** The jobs that record the turn's events for event subscriptions (bot-events.ts), for the commit's outbox. */
  readonly jobs: readonly NewJob[];
  /** The state's variables, with what the observers keep of the turn. */
  readonly variables: Readonly<Record<string, unknown>>;
  committed(user: UserRecord): void;
}

/**
 * Hands a turn's try to those who hear of turns: event subscriptions (jobs in the commit) and the
 * turn observers (notes in the commit, told once it is committed). A try that is not committed
 * (a conflict redoes the turn) tells nobody anything.
 */
export function observeTurn(deps: AppDeps, turn: TurnTry): TurnObservation {
  const observers = observersOf(deps);
  const events = observers.length > 0 ? turnEvents(turn) : [];
  const notes = observers.map((observer) =>
    observer.observe({
      user: turn.user,
      now: turn.now,
      events,
      ...(turn.channelId === undefined ? {} : { channel: turn.channelId }),
    }),
  );
  const jobs = turnEventJobs(
    deps,
    turn.user,
    {
      before: turn.read,
      input: turn.input,
      result: turn.result,
      storesEntries: turn.userEntry !== undefined || turn.botEntries.first <= turn.botEntries.last,
      ...(turn.trigger ? { trigger: turn.trigger } : {}),
      botEntries: turn.botEntries,
    },
    turn.now,
  );
  const kept = notes.flatMap((note) => (note.variables ? [note.variables] : []));
  return {
    jobs,
    variables: kept.length > 0 ? Object.assign({}, turn.result.state.variables, ...kept) : turn.result.state.variables,
    committed: (user) => {
      for (const note of notes) note.committed?.(user);
    },
  };
}

/** Tells the observers what a committed turn did after its commit: the emails and SMS that went out. */
export function followTurn(
  deps: AppDeps,
  user: UserRecord,
  effects: readonly Effect[],
  failed: readonly { readonly dialogId: string; readonly stepId: string }[],
): void {
  const events: TurnEvent[] = [];
  for (const effect of effects) {
    if (effect.type !== 'email' && effect.type !== 'sms') continue;
    if (failed.some((f) => f.dialogId === effect.dialogId && f.stepId === effect.stepId)) continue;
    events.push({ kind: effect.type === 'email' ? 'emailSent' : 'smsSent' });
  }
  if (events.length > 0) for (const observer of observersOf(deps)) observer.followed(user, events);
}

/** What happened in a turn, for its observers, in order. Pure. */
export function turnEvents(
  turn: Pick<TurnTry, 'input' | 'result' | 'userWrote' | 'userEntry' | 'trigger'>,
): TurnEvent[] {
  const { input, result } = turn;
  const events: TurnEvent[] = [];
  if (turn.userWrote)
    events.push({ kind: 'userWrote', text: turn.userEntry ? messageText(turn.userEntry.message) : null });
  if (input.kind === 'pageEvent') events.push({ kind: 'pageEvent', name: input.name });
  else if (input.kind === 'start' && turn.trigger) events.push({ kind: 'trigger', name: input.dialogId });
  else if (input.kind === 'timer') events.push({ kind: 'timer', name: input.timerId });
  else if (input.kind === 'integrationResult' && !input.ok) events.push({ kind: 'integrationFailed' });
  for (const { dialogId, stepId } of result.visits ?? []) events.push({ kind: 'stepEntered', dialogId, stepId });
  for (const mark of result.trail)
    if (mark.kind === 'dialogCompleted') events.push({ kind: 'dialogCompleted', dialogId: mark.dialogId });
  for (const effect of result.effects) {
    if (effect.type === 'nlpLog' && !effect.fields.processed)
      events.push({ kind: 'unprocessed', text: effect.fields.query });
    else if (effect.type === 'faqLog')
      events.push(effect.fields.matched ? { kind: 'faqAnswered' } : { kind: 'faqMissed', text: effect.fields.text });
  }
  if (result.outputs.length > 0) events.push({ kind: 'botSaid', messages: result.outputs.length });
  return events;
}

/** Who hears of turns: the studio's insights, when they are recorded. */
function observersOf(deps: AppDeps): readonly TurnObserver[] {
  return deps.insights ? [deps.insights] : [];
}
