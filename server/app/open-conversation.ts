import type { TranscriptEntry, UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { answerPending } from './answer-pending.ts';
import { applyTurn } from './apply-turn.ts';
import { splitPageData } from './set-user-data.ts';
import { emitOutsideTurn, userDataChange } from './turn-events.ts';
import { updateUserWithRetry } from './update-user.ts';

export interface OpenConversation {
  readonly userId: string;
  readonly channelId: string;
  /** What the page knows about the user, passed at init. */
  readonly init?: Readonly<Record<string, unknown>>;
  /** A change committed with the start dialog's turn, when it runs (a channel's record that this request opened it). */
  readonly adjust?: (user: UserRecord) => UserRecord;
}

/** Most entries replayed in one go after a reconnect. */
export const REPLAY_LIMIT = 500;

/**
 * A widget connected. The page's init data is saved before any dialog runs
 * (declared user-data fields to user data, the rest to variables), and a user
 * who never heard from the bot starts the bot's start dialog.
 */
export async function openConversation(deps: AppDeps, input: OpenConversation): Promise<void> {
  const { userData, variables } = splitPageData(deps, input.init ?? {});
  if (Object.keys(userData).length === 0 && Object.keys(variables).length === 0) {
    // A returning user with nothing new to save and nothing waiting: no turn to run, so no
    // turn lock to take (on a shared store, two writes each reconnect would cost).
    const known = await deps.store.getUser(input.userId);
    if (known && known.pendingSeq === undefined && !(known.lastSeq === 0 && known.position === null)) return;
  }
  return deps.turns.run(input.userId, async () => {
    const now = deps.clock.now();
    const user = await deps.store.ensureUser({ userId: input.userId, channelId: input.channelId, userData, variables, now });
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
      await applyTurn(deps, input.userId, { kind: 'start', dialogId: deps.definition.settings.startDialog }, now, {
        userWrote: false,
        ...(input.adjust ? { adjust: input.adjust } : {}),
      });
    }
  });
}

/** What a reconnecting widget missed: stored entries after the last seq it showed. */
export function readMissed(deps: AppDeps, userId: string, afterSeq: number): Promise<TranscriptEntry[]> {
  return deps.store.readTranscript(userId, afterSeq, REPLAY_LIMIT);
}
