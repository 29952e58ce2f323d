import { DeadlinePassed, newDeadline, runWithDeadline } from '../ports/deadline.ts';
import type { AppDeps } from './deps.ts';

/**
 * How long a visitor's message may take to be stored (TURN_DEADLINE): a person waits seconds,
 * not the minutes a hung store's socket timeouts times its retries would add up to.
 */
export const DEFAULT_TURN_DEADLINE_MS = 15_000;

/**
 * Runs a message's turn under its deadline. Past it the caller gets DeadlinePassed (the visitor
 * is asked to send again) and the operator one log line; the turn itself cannot be cut short
 * mid-write, but it starts no write and no retry past the deadline (ports/deadline.ts). A write
 * already on its way may still land: its message is then stored once and shown, and the
 * widget's resend of the same clientId is recognised as a duplicate.
 *
 * The clock starts when `work` calls startDeadline, once it holds the user's turn lock: a
 * message sent while the bot waits on a slow integration (up to 30 s, a step's timeoutMs) waits
 * behind that call, and the store is not at fault for it. A hung store holds the lock at most
 * one socket timeout longer, so a queued message still hears back in well under a minute. A caller
 * that promised an answer by a time (the REST channel) passes `startBy`: the clock then starts
 * there at the latest, also while the message still waits behind the earlier turn.
 */
export async function withinTurnDeadline<T>(
  deps: AppDeps,
  about: { readonly userId: string; readonly clientId: string; readonly startBy?: number },
  work: () => Promise<T>,
): Promise<T> {
  const ms = deps.turnDeadlineMs ?? DEFAULT_TURN_DEADLINE_MS;
  const deadline = newDeadline(ms, true, about.startBy);
  const running = runWithDeadline(deadline, work);
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<never>((_, reject) => {
    const check = () => {
      // The message is stored: the answer is on its way, however long the rest of the turn takes (an email, say).
      if (deadline.met) return;
      const left = deadline.at - performance.now();
      // Not started yet (still behind the user's earlier turn): look again in a while.
      if (left > 0) timer = setTimeout(check, Math.min(left, ms));
      else reject(new DeadlinePassed(ms));
    };
    // A deadline whose latest start has passed already (startBy) may be due before `ms`.
    timer = setTimeout(check, Math.max(0, Math.min(ms, deadline.at - performance.now())));
  });
  try {
    return await Promise.race([running, passed]);
  } catch (error) {
    if (!(error instanceof DeadlinePassed)) throw error;
    // What the turn comes to later was answered already: a late failure is the same store's, a late success shows itself.
    running.catch(() => undefined);
    deps.logger.error(
      { event: 'turn_deadline_passed', userId: about.userId, clientId: about.clientId, deadlineMs: ms },
      'a message could not be stored within the turn deadline (the store is slow or unreachable); the visitor was asked to send it again',
    );
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
