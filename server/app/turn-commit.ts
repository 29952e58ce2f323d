import type { NewJob, NewTranscriptEntry, TurnCommit } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { observeTurn, type TurnObservation, type TurnTry } from './observe-turn.ts';
import { trackLinks } from './track-links.ts';
import { turnOutbox } from './turn-outbox.ts';

/** What the caller of a turn says about it that its commit carries. */
export interface CommitOptions {
  readonly userWrote: boolean;
  /** The user's message that started the turn: stored in the same commit as the turn, once per clientId. */
  readonly userEntry?: NewTranscriptEntry;
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
  /**
   * The channel the turn came in on (or goes out on), when it is not the one stored with the user: a
   * linked person writing from another of their channels. Insights count the turn under it.
   */
  readonly channelId?: string;
  /** The job running this turn (a channel's inbound event): finished in the turn's commit, which then needs no commit of its own. */
  readonly completesJob?: { readonly id: string; readonly workerId: string };
}

/**
 * The store's commit of one try of a turn: its state, messages and outbox, with what the
 * channel (a hand-off) and those who hear of turns (observe-turn.ts) keep with it.
 */
export function turnCommit(
  deps: AppDeps,
  run: Pick<TurnTry, 'read' | 'user' | 'input' | 'result' | 'now'>,
  options: CommitOptions,
): { commit: TurnCommit; jobs: readonly NewJob[]; observation: TurnObservation } {
  const { read, user, result, now } = run;
  const { userId } = user;
  const events = result.effects.flatMap((e) => (e.type === 'botEvent' ? [{ name: e.name, payload: e.payload }] : []));
  // A channel that reads back what it missed keeps the bot's events too, after the turn's messages.
  const kept = events.length > 0 ? (deps.delivery.eventMessages?.(user, events) ?? []) : [];
  const outputs = [...trackLinks(deps, userId, result.outputs), ...kept];
  const firstSeq = user.lastSeq + (options.userEntry ? 2 : 1);
  const botEntries = { first: firstSeq, last: firstSeq + outputs.length - 1 };
  const outbox = turnOutbox(deps, userId, result.effects, now);
  // Started by this node's runner as the commit lands, when it has room: a channel turn's sends wait for no claim.
  const handedOff = (deps.delivery.handOff?.(user, { firstSeq, lastSeq: botEntries.last, at: now, events }) ?? []).map(
    (job) => deps.scheduler.leaseOnCommit?.(job) ?? job,
  );
  const { trigger, userEntry, channelId } = options;
  const observation = observeTurn(deps, {
    ...run,
    userWrote: options.userWrote,
    ...(userEntry ? { userEntry } : {}),
    ...(trigger ? { trigger } : {}),
    ...(channelId === undefined ? {} : { channelId }),
    botEntries,
  });
  const jobs = [...outbox.jobs, ...handedOff, ...observation.jobs];
  const commit: TurnCommit = {
    userId,
    expectedVersion: user.version,
    patch: {
      position: result.state.position,
      variables: observation.variables,
      userData: result.state.userData,
      ...(options.userWrote ? { lastMessageAt: now } : {}),
      ...(trigger ? { lastTrigger: laterOf(read.lastTrigger, trigger.id) } : {}),
    },
    now,
    ...(userEntry ? { userEntry } : {}),
    snapshots: result.effects.flatMap((e) =>
      e.type === 'snapshotUserData' ? [{ userId, timestamp: now, data: e.data }] : [],
    ),
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
    ...(options.completesJob ? { completeJobs: [options.completesJob] } : {}),
  };
  return { commit, jobs, observation };
}

/** The mark never moves back: a trigger that runs late (see trigger-dialog.ts) leaves it where it was. */
function laterOf(mark: string | null, id: string): string {
  return mark !== null && mark > id ? mark : id;
}
