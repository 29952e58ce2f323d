import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';

export interface UserText {
  readonly userId: string;
  readonly clientId: string;
  readonly text: string;
}

/**
 * The user wrote something: store it once (a resent clientId is recognised and
 * not answered twice), show it on the user's other open widgets, let the bot
 * answer. Resolves with the stored entry's seq, which the widget is acked with.
 */
export function handleUserMessage(deps: AppDeps, input: UserText): Promise<{ seq: number; duplicate: boolean }> {
  return deps.turns.run(input.userId, async () => {
    const now = deps.clock.now();
    const [entry] = await deps.store.appendTranscript(input.userId, [
      { from: 'user', clientId: input.clientId, at: now, message: { type: 'text', text: input.text } },
    ]);
    if (!entry) throw new Error('the store returned no transcript entry');
    if (entry.duplicate) return { seq: entry.seq, duplicate: true };
    deps.delivery.deliver(input.userId, [entry]);
    deps.delivery.typing(input.userId, true);
    try {
      await applyTurn(deps, input.userId, { kind: 'text', text: input.text }, now, { userWrote: true });
    } finally {
      deps.delivery.typing(input.userId, false);
    }
    return { seq: entry.seq, duplicate: false };
  });
}
