import type { UserMessage } from '../../shared/protocol.ts';
import type { NewTranscriptEntry, TranscriptEntry, UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { answerPending, pendingJob } from './answer-pending.ts';
import { applyTurn, countStored } from './apply-turn.ts';
import { mayBeLinkCode, redeemLinkCode } from './link-channels.ts';
import { UnknownDialogError } from './start-dialog.ts';
import { toEngineInput } from './to-engine-input.ts';
import { withinTurnDeadline } from './turn-deadline.ts';
import { meetDeadline, startDeadline, timeLeft } from '../ports/deadline.ts';

export interface UserInput {
  readonly userId: string;
  readonly clientId: string;
  readonly message: UserMessage;
  /** The user as the caller just read them (a reconnect's read): saves the turn its read; a stale one only costs a retry. */
  readonly user?: UserRecord;
  /** Told the user as this turn committed them, so the caller can hand them to its next message as `user`. */
  readonly committed?: (user: UserRecord) => void;
  /**
   * Told the moment the message is stored (now, or found stored before), ahead of the rest of the
   * turn (emails, SMS): a caller that answers by a time can then name its seq.
   */
  readonly stored?: (ran: { readonly seq: number; readonly duplicate: boolean }) => void;
  /** performance.now() time by which the turn deadline starts at the latest, also while the message waits behind an earlier turn (turn-deadline.ts). */
  readonly startBy?: number;
  /** The channel the message came through, when the caller knows: a linked person's answers go there (Delivery.via). */
  readonly channelId?: string;
  /** The job running this message's turn: finished in the turn's commit (`committed` tells it was). */
  readonly completesJob?: { readonly id: string; readonly workerId: string };
}

export { UnknownDialogError };

/** How long the bot may think before the widget shows "typing…". */
export const TYPING_DELAY_MS = 300;

/**
 * The user wrote something or pressed a button: store it once (a resent
 * clientId is recognised and not answered twice), show it on the user's other
 * open widgets, let the bot answer. The message, the new state and the bot's
 * answers are stored in one commit. Resolves with the stored entry's seq,
 * which the widget is acked with.
 */
export function handleUserMessage(
  deps: AppDeps,
  input: UserInput,
): Promise<{ seq: number; duplicate: boolean; personId?: string }> {
  // Where a linked person writes from is where they hear back; kept (once per change) for triggers too.
  if (input.channelId !== undefined && deps.delivery.via?.(input.userId, input.channelId))
    void deps.identityLinks?.used(input.userId, input.channelId, deps.clock.now()).catch(() => undefined);
  // A code a link-channels step showed on another channel links the two and runs the person's turn instead.
  if (mayBeLinkCode(deps, input.message))
    return redeemLinkCode(deps, input).then((linked) => linked ?? answerMessage(deps, input));
  return answerMessage(deps, input);
}

function answerMessage(deps: AppDeps, input: UserInput): Promise<{ seq: number; duplicate: boolean }> {
  const engineInput = toEngineInput(deps, input.message);
  return withinTurnDeadline(deps, input, () =>
    deps.turns.run(input.userId, async () => {
      // The turn holds the user's lock: from here the store has TURN_DEADLINE to take the message.
      startDeadline();
      const now = deps.clock.now();
      const userEntry = { from: 'user' as const, clientId: input.clientId, at: now, message: input.message };
      // "Typing…" only for answers that take a while (a mail server, a slow model): an
      // instant answer would just flicker the indicator, and costs two more pushes per turn.
      let typing = false;
      const indicator = setTimeout(() => {
        typing = true;
        deps.delivery.typing(input.userId, true);
      }, TYPING_DELAY_MS);
      try {
        const outcome = await applyTurn(deps, input.userId, engineInput, now, {
          userWrote: true,
          userEntry,
          ...(input.channelId === undefined ? {} : { channelId: input.channelId }),
          ...(input.user ? { user: input.user } : {}),
          ...(input.stored ? { stored: input.stored } : {}),
          ...(input.completesJob ? { completesJob: input.completesJob } : {}),
        }).catch(async (error: unknown) => storePendingOrRethrow(deps, input, userEntry, error));
        // Stored, to be answered shortly: acked like any stored message, so the widget does not show it as failed.
        if (outcome.status === 'pending') return { seq: outcome.entry.seq, duplicate: false };
        if (outcome.status === 'duplicate') {
          // The widget resends what it saw no ack for: if that message's turn had failed, this is its second run.
          // The turn's own read of the user tells (a stale one is safe: answerPending's commit checks the mark again).
          const user = 'user' in outcome && outcome.user ? outcome.user : await deps.store.getUser(input.userId);
          if (user?.pendingSeq === outcome.entry.seq) await answerPending(deps, user);
          return { seq: outcome.entry.seq, duplicate: true };
        }
        const own = outcome.entries.find((e) => e.from === 'user' && e.clientId === input.clientId);
        if (!own) throw new Error('the store returned no transcript entry for the message');
        input.committed?.(outcome.user);
        return { seq: own.seq, duplicate: false };
      } finally {
        clearTimeout(indicator);
        if (typing) deps.delivery.typing(input.userId, false);
      }
    }),
  );
}

/**
 * The turn failed before it was committed (an engine or store error): the
 * message is still stored and shown, so the user's words are not lost with the
 * bot's answer, and marked pending in the same write, so its turn runs again:
 * by the job runner shortly, or when the user reconnects or resends, whichever
 * comes first (answer-pending.ts). Only when even that cannot be stored does
 * the failure reach the widget, which then shows the message as not sent.
 */
async function storePendingOrRethrow(
  deps: AppDeps,
  input: UserInput,
  entry: NewTranscriptEntry,
  error: unknown,
): Promise<
  | { readonly status: 'pending'; readonly entry: TranscriptEntry }
  | { readonly status: 'duplicate'; readonly entry: TranscriptEntry }
> {
  let stored: TranscriptEntry & { readonly duplicate: boolean };
  // Past the deadline the visitor has been asked to send again: storing the message now would answer them twice.
  if (timeLeft() <= 0) throw error;
  try {
    stored = await deps.store.storePending(input.userId, entry);
    meetDeadline();
  } catch {
    // The store is away: the original error says more than this one.
    throw error;
  }
  input.stored?.({ seq: stored.seq, duplicate: stored.duplicate });
  if (stored.duplicate) return { status: 'duplicate' as const, entry: stored };
  deps.logger.error(
    { event: 'turn_failed', userId: input.userId, seq: stored.seq, err: error },
    "a turn failed; the user's message is stored and its turn will run again",
  );
  countStored(deps, [stored]);
  deps.delivery.deliver(input.userId, [stored]);
  // Best effort: should the store refuse this too, the mark still brings the turn back on the next connect.
  await deps.scheduler.schedule(pendingJob(input.userId, stored.seq, deps.clock.now())).catch(() => undefined);
  return { status: 'pending' as const, entry: stored };
}
