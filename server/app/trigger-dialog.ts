import type { Reach } from '../ports/delivery.ts';
import type { UnfinishedJob } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
import { reachPerson } from './reach-person.ts';
import { assertDialog } from './start-dialog.ts';

/** The job kind that carries a trigger from the HTTP answer to the dialog run. */
export const TRIGGER_JOB = 'trigger';

/** Orders triggers accepted by this process within one millisecond. */
let arrivals = 0;
/**
 * The time part of the last id handed out: ids must sort by acceptance (a user's
 * triggers run in id order, and the user's trigger mark relies on it), so a clock
 * stepping back (NTP) does not make a later trigger sort before an earlier one.
 */
let lastStamp = 0;

/** A trigger that waits for an earlier one that is running looks again after at most this long (ms). */
const RECHECK_RUNNING_MS = 1000;
/** Nor sooner than this: a deferral is a claim and a write, not a busy loop. */
const MIN_WAIT_MS = 50;

/** One user's triggers form a job group: they run one after another, in id order. */
export function triggerGroup(userId: string): string {
  return `trigger:${userId}`;
}

/** Attempts of a trigger job; a failing run (the store away for a moment) is retried with backoff. */
const TRIGGER_ATTEMPTS = 5;

export interface Trigger {
  readonly userId: string;
  readonly channelId: string;
  readonly dialogId: string;
  /** `clear` first deletes the user's position in the tree. */
  readonly mode: 'clear' | null;
  /** The request body, stored as the user-data field `triggerData`; {} when the call had none. */
  readonly data: Readonly<Record<string, unknown>>;
  /** The address's optional conversation reference, kept for channels that need it. */
  readonly conversation?: string;
  /** A linked person's channel to hear the dialog on (reach-person.ts), when not the one stored with them. */
  readonly via?: string;
}

export interface TriggerAccepted {
  readonly userId: string;
  readonly dialogId: string;
  readonly mode: 'clear' | null;
  /**
   * live: the user is connected (or has a channel request open) and gets the messages now;
   * callback: their REST channel's callback URL gets them, signed; queued: they are stored and
   * delivered on their next connect (or read with GET …/messages), in order.
   */
  readonly delivery: Reach;
}

/**
 * An external system asked to start a dialog for a user. The trigger is stored
 * as a durable job before this resolves, so once the caller has its 202 the
 * dialog runs even if this process dies right after answering.
 */
export async function acceptTrigger(deps: AppDeps, named: Trigger): Promise<TriggerAccepted> {
  assertDialog(deps, named.dialogId);
  // A linked address is one person's: the trigger runs on the person, on the channel they are to hear it on.
  const trigger: Trigger = { ...named, ...(await reachPerson(deps, named)) };
  if (trigger.via !== undefined) deps.delivery.via?.(trigger.userId, trigger.via);
  const now = deps.clock.now();
  // Only a channel with rules of its own reads the user here (deliveryByChannel leaves the hook out otherwise).
  if (deps.delivery.admitTrigger) {
    const user = await deps.store.getUser(trigger.userId);
    // A linked person hears it on `via`: that channel's rules apply, not those of the one their record is of.
    const heard = user && trigger.via !== undefined ? { ...user, channelId: trigger.via } : user;
    deps.delivery.admitTrigger(heard, trigger.via ?? trigger.channelId, trigger.dialogId, now);
  }
  lastStamp = Math.max(lastStamp, now);
  await deps.scheduler.schedule({
    // Due jobs are claimed by (runAt, id): an id that sorts by arrival keeps two
    // triggers of the same millisecond in the order they were accepted.
    id: `trigger:${lastStamp.toString(36).padStart(10, '0')}:${(arrivals++).toString(36).padStart(8, '0')}:${crypto.randomUUID()}`,
    kind: TRIGGER_JOB,
    payload: { ...trigger },
    runAt: now,
    maxAttempts: TRIGGER_ATTEMPTS,
    group: triggerGroup(trigger.userId),
  });
  return {
    userId: trigger.userId,
    dialogId: trigger.dialogId,
    mode: trigger.mode,
    delivery: await deps.delivery.reach(trigger.userId, trigger.channelId),
  };
}

/** The trigger job being run: its id (which sorts by acceptance) and which attempt this is (1 = the first). */
export interface TriggerRun {
  readonly jobId: string;
  readonly attempt: number;
}

export type TriggerOutcome =
  /** The dialog ran now; or it had run already (a run cut short after its commit) and did not run again. */
  | { readonly status: 'ran' | 'ran-before' }
  /** An earlier trigger of the same user has not run yet: look again at `retryAt`. */
  | { readonly status: 'waiting'; readonly retryAt: number };

/**
 * Runs an accepted trigger under the user's turn lock: the body becomes
 * `triggerData`, `clear` resets the position, then the dialog runs. Its
 * messages are stored in the transcript (the delivery queue) and pushed to
 * any open widget; a widget that connects later replays them in order.
 *
 * Once, and in order per user, across crashes: the user's trigger mark (the id of
 * the last trigger applied) is committed with the dialog's first turn, so a job
 * taken over after its worker died between that commit and finishing the job
 * finds its run done. And a trigger runs only once no earlier trigger of the
 * same user is still pending or running; otherwise it waits without using up an attempt.
 */
export async function runTrigger(deps: AppDeps, trigger: Trigger, run: TriggerRun): Promise<TriggerOutcome> {
  assertDialog(deps, trigger.dialogId);
  return deps.turns.run(trigger.userId, async (): Promise<TriggerOutcome> => {
    const now = deps.clock.now();
    const user = await deps.store.ensureUser({ userId: trigger.userId, channelId: trigger.channelId, now });
    const mark = user.lastTrigger;
    const marked = mark !== null && mark >= run.jobId;
    // A first attempt has never run, whatever the mark says: a trigger whose write landed
    // after a later one of the same user had already run (two calls at once) runs late
    // rather than never. Only a later attempt may find its own earlier run.
    if (marked && run.attempt > 1) return { status: 'ran-before' };
    if (marked)
      deps.logger.warn(
        { userId: trigger.userId, jobId: run.jobId },
        'a trigger runs after a later one of the same user (both were accepted at the same time)',
      );
    // Only triggers after the mark can be waiting: every one up to it has run or was given up.
    const earlier = await deps.store.firstUnfinishedJob(triggerGroup(trigger.userId), mark ?? '', run.jobId);
    if (earlier !== null) return { status: 'waiting', retryAt: lookAgainAt(earlier, now) };
    if (trigger.via !== undefined) deps.delivery.via?.(trigger.userId, trigger.via);
    // triggerData and the cleared position are committed with the dialog's first turn: one write, not two.
    const outcome = await applyTurn(deps, trigger.userId, { kind: 'start', dialogId: trigger.dialogId }, now, {
      userWrote: false,
      user,
      trigger: { id: run.jobId, seenMark: mark },
      ...(trigger.via === undefined ? {} : { channelId: trigger.via }),
      adjust: (current) => ({
        ...current,
        userData: { ...current.userData, triggerData: trigger.data },
        ...(trigger.mode === 'clear' ? { position: null } : {}),
      }),
    });
    return { status: outcome.status === 'ran-elsewhere' ? 'ran-before' : 'ran' };
  });
}

/**
 * When to look again for a trigger held back by `earlier`: a retry waiting for
 * its time is not due before it; a running one ends soon if its worker is
 * alive, and when its lease runs out if the worker died.
 */
function lookAgainAt(earlier: UnfinishedJob, now: number): number {
  if (earlier.status === 'pending') return Math.max(earlier.runAt, now + MIN_WAIT_MS);
  const leaseEnd = earlier.leaseUntil ?? now + RECHECK_RUNNING_MS;
  return Math.max(now + MIN_WAIT_MS, Math.min(leaseEnd, now + RECHECK_RUNNING_MS));
}
