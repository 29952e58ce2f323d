import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';

/**
 * A wait step's durable timer is due: the user's conversation moves on,
 * unless the timer was cancelled meanwhile (the engine knows; then nothing
 * happens). Runs in the user's turn order like any input.
 */
export function fireTimer(deps: AppDeps, input: { readonly userId: string; readonly timerId: string }): Promise<void> {
  return deps.turns.run(input.userId, async () => {
    if (!(await deps.store.getUser(input.userId))) return;
    await applyTurn(deps, input.userId, { kind: 'timer', timerId: input.timerId }, deps.clock.now(), { userWrote: false });
  });
}
