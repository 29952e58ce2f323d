import type { TranscriptEntry, UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { answerPending } from './answer-pending.ts';
import { applyTurn } from './apply-turn.ts';
import { splitPageData } from './set-user-data.ts';
import { emitOutsideTurn, userDataChange } from './bot-events.ts';
import { updateUserWithRetry } from './update-user.ts';

export interface OpenConversation {
  readonly userId: string;
  readonly channelId: string;
  /** What the page knows about the user, passed at init. */
  readonly init?: Readonly<Record<string, unknown>>;
  /** Where a new user's conversation begins: the start dialog when absent (a studio preview or a test may choose). */
  readonly startAt?: { readonly dialogId: string; readonly stepId?: string };
  /** A change committed with the start dialog's turn, when it runs (a channel's record that this request opened it). */
  readonly adjust?: (user: UserRecord) => UserRecord;
  /**
   * The user as the caller read them a moment ago (null: not stored), which saves the check a
   * read of its own. Only for the check: anything that writes reads the user again under the
   * turn lock.
   */
  readonly known?: UserRecord | null;
}

/** Most entries replayed in one go after a reconnect. */
export const REPLAY_LIMIT = 500;

/**
 * A widget connected. The page's init data is saved before any dialog runs
 * (declared user-data fields to user data, the rest to variables), and a user
 * who never heard from the bot starts the bot's start dialog. Resolves false when
 * there was nothing to do (a returning user with nothing new or waiting): the user
 * is then as the caller's `known` says.
 */
export async function openConversation(deps: AppDeps, input: OpenConversation): Promise<boolean> {
  const { userData, variables } = splitPageData(deps, input.init ?? {});
  if (Object.keys(userData).length === 0 && Object.keys(variables).length === 0) {
    // A returning user with nothing new to save and nothing waiting: no turn to run, so no
    // turn lock to take (on a shared store, two writes each reconnect would cost).
    const known = input.known !== undefined ? input.known : await deps.store.getUser(input.userId);
    if (known && known.pendingSeq === undefined && !(known.lastSeq === 0 && known.position === null)) return false;
  }
  await deps.turns.run(input.userId, async () => {
    const now = deps.clock.now();
    const user = await deps.store.ensureUser({
      userId: input.userId,
      channelId: input.channelId,
      userData,
      variables,
      now,
    });
    // A returning user's page may know more now (a login since the last visit): merge it in.
    if (Object.keys(userData).length > 0 || Object.keys(variables).length > 0) {
      let before: Readonly<Record<string, unknown>> = {};
      const updated = await updateUserWithRetry(deps.store, input.userId, now, (current) => {
        before = current.userData;
        return { userData: { ...current.userData, ...userData }, variables: { ...current.variables, ...variables } };
      });
      const change = userDataChange(before, updated.userData);
      if (change) await emitOutsideTurn(deps, updated, [{ kind: 'userData.changed', data: change }], now);
    }
    // A message stored while its turn failed is answered now, if the job runner has not yet.
    if (user.pendingSeq !== undefined) await answerPending(deps, user);
    if (user.lastSeq === 0 && user.position === null) {
      const at = input.startAt ?? { dialogId: deps.definition.settings.startDialog };
      await applyTurn(
        deps,
        input.userId,
        { kind: 'start', dialogId: at.dialogId, ...(at.stepId === undefined ? {} : { stepId: at.stepId }) },
        now,
        {
          userWrote: false,
          ...(input.adjust ? { adjust: input.adjust } : {}),
        },
      );
    }
  });
  return true;
}

/** What a reconnecting widget missed: stored entries after the last seq it showed. */
export function readMissed(deps: AppDeps, userId: string, afterSeq: number): Promise<TranscriptEntry[]> {
  return deps.store.readTranscript(userId, afterSeq, REPLAY_LIMIT);
}

/** What a returning widget needs at connect: the user (null when unknown) and what it missed, with one read of the user. */
export function readReturning(
  deps: AppDeps,
  userId: string,
  afterSeq: number,
): Promise<{ user: UserRecord | null; missed: TranscriptEntry[] }> {
  return deps.store.readReturning(userId, afterSeq, REPLAY_LIMIT);
}
