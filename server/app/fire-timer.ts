import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';

/**
 * A wait step's durable timer is due: the user's conversation moves on,
 * unless the timer was cancelled meanwhile (the engine knows; then nothing
 * happens). Runs in the user's turn order like any input.
 */
export function fireTimer(deps: AppDeps, input: { readonly userId: string; readonly timerId: string }): Promise<void> {
  return deps.turns.run(input.userId, async () => {
    const user = await deps.store.getUser(input.userId);
    if (!user) return;
    // The user just read is the turn's: a second read would cost a round trip on a shared store.
    await applyTurn(deps, input.userId, { kind: 'timer', timerId: input.timerId }, deps.clock.now(), {
      userWrote: false,
      user,
    });
  });
}
