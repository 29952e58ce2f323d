import type { UserMessage } from '../../shared/protocol.ts';
import type { UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
import { toEngineInput } from './to-engine-input.ts';
import { updateUserWithRetry } from './update-user.ts';

/** The job kind that answers a pending message when the user does not come back first. */
export const PENDING_JOB_KIND = 'pendingTurn';
/** How long after a failed turn its message is tried again by the job runner. */
export const PENDING_RETRY_MS = 2000;

/** The job that runs a pending message's turn again; one per user and message. */
export function pendingJob(userId: string, seq: number, now: number) {
  return { id: `pending:${userId}:${seq}`, kind: PENDING_JOB_KIND, payload: { userId }, runAt: now + PENDING_RETRY_MS };
}

/**
 * The user's message is stored but its turn failed (user.pendingSeq): run the
 * turn again, once. Called by the job runner, on the user's next connect and
 * when the widget resends the message, whichever comes first; the commit that
 * answers clears the mark in the same write, so the others find nothing to do.
 * When the second run fails too the mark is cleared and the failure logged: a
 * message that breaks its turn must not break every later connect.
 * Callers hold the user's turn lock (deps.turns).
 */
export async function answerPending(deps: AppDeps, user: UserRecord): Promise<void> {
  const seq = user.pendingSeq;
  if (seq === undefined) return;
  const { userId } = user;
  try {
    const [entry] = await deps.store.readTranscript(userId, seq - 1, 1);
    if (entry === undefined || entry.seq !== seq || entry.from !== 'user')
      throw new Error(`no user message at seq ${seq}`);
    const input = toEngineInput(deps, entry.message as unknown as UserMessage);
    await applyTurn(deps, userId, input, deps.clock.now(), { userWrote: true, answersPending: seq, user });
    deps.logger.info({ event: 'pending_answered', userId, seq }, 'a stored message whose turn had failed is answered');
  } catch (error) {
    deps.logger.error(
      { event: 'pending_failed', userId, seq, err: error },
      "a stored message's turn failed again; it is not run a third time",
    );
    await updateUserWithRetry(deps.store, userId, deps.clock.now(), (current) =>
      current.pendingSeq === seq ? { pendingSeq: null } : {},
    ).catch(() => undefined);
  }
}

/** Job runner entry: the user's pending message, if it still waits. */
export function answerPendingOf(deps: AppDeps, userId: string): Promise<void> {
  return deps.turns.run(userId, async () => {
    const user = await deps.store.getUser(userId);
    if (user?.pendingSeq !== undefined) await answerPending(deps, user);
  });
}
