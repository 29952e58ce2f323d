import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
import { assertDialog } from './start-dialog.ts';

/** The job kind that carries a trigger from the HTTP answer to the dialog run. */
export const TRIGGER_JOB = 'trigger';

/** Orders triggers accepted by this process within one millisecond. */
let arrivals = 0;

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
}

export interface TriggerAccepted {
  readonly userId: string;
  readonly dialogId: string;
  readonly mode: 'clear' | null;
  /** live: the user is connected and gets the messages now; queued: on their next connect, in order. */
  readonly delivery: 'live' | 'queued';
}

/**
 * An external system asked to start a dialog for a user. The trigger is stored
 * as a durable job before this resolves, so once the caller has its 202 the
 * dialog runs even if this process dies right after answering.
 */
export async function acceptTrigger(deps: AppDeps, trigger: Trigger): Promise<TriggerAccepted> {
  assertDialog(deps, trigger.dialogId);
  const now = deps.clock.now();
  await deps.scheduler.schedule({
    // Due jobs are claimed by (runAt, id): an id that sorts by arrival keeps two
    // triggers of the same millisecond in the order they were accepted.
    id: `trigger:${now.toString(36).padStart(10, '0')}:${(arrivals++).toString(36).padStart(8, '0')}:${crypto.randomUUID()}`,
    kind: TRIGGER_JOB,
    payload: { ...trigger },
    runAt: now,
    maxAttempts: TRIGGER_ATTEMPTS,
  });
  return {
    userId: trigger.userId,
    dialogId: trigger.dialogId,
    mode: trigger.mode,
    delivery: deps.delivery.isOnline(trigger.userId) ? 'live' : 'queued',
  };
}

/**
 * Runs an accepted trigger under the user's turn lock: the body becomes
 * `triggerData`, `clear` resets the position, then the dialog runs. Its
 * messages are stored in the transcript (the delivery queue) and pushed to
 * any open widget; a widget that connects later replays them in order.
 */
export async function runTrigger(deps: AppDeps, trigger: Trigger): Promise<void> {
  assertDialog(deps, trigger.dialogId);
  await deps.turns.run(trigger.userId, async () => {
    const now = deps.clock.now();
    const user = await deps.store.ensureUser({ userId: trigger.userId, channelId: trigger.channelId, now });
    // triggerData and the cleared position are committed with the dialog's first turn: one write, not two.
    await applyTurn(deps, trigger.userId, { kind: 'start', dialogId: trigger.dialogId }, now, {
      userWrote: false,
      user,
      adjust: (current) => ({
        ...current,
        userData: { ...current.userData, triggerData: trigger.data },
        ...(trigger.mode === 'clear' ? { position: null } : {}),
      }),
    });
  });
}
