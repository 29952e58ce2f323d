import type { UserMessage } from '../../shared/protocol.ts';
import type { EngineInput } from '../engine/types.ts';
import type { NewTranscriptEntry } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { applyTurn, countStored } from './apply-turn.ts';
import { UnknownDialogError, assertDialog } from './start-dialog.ts';

export interface UserInput {
  readonly userId: string;
  readonly clientId: string;
  readonly message: UserMessage;
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
export function handleUserMessage(deps: AppDeps, input: UserInput): Promise<{ seq: number; duplicate: boolean }> {
  const engineInput = toEngineInput(deps, input.message);
  return deps.turns.run(input.userId, async () => {
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
      }).catch(async (error: unknown) => storeAloneAndRethrow(deps, input, userEntry, error));
      if (outcome.status === 'duplicate') return { seq: outcome.entry.seq, duplicate: true };
      const own = outcome.entries.find((e) => e.from === 'user' && e.clientId === input.clientId);
      if (!own) throw new Error('the store returned no transcript entry for the message');
      return { seq: own.seq, duplicate: false };
    } finally {
      clearTimeout(indicator);
      if (typing) deps.delivery.typing(input.userId, false);
    }
  });
}

/**
 * The turn failed before it was committed (an engine or store error): the
 * message is still stored and shown, as it was before turns were committed
 * whole, so the user's words are not lost with the bot's answer.
 */
async function storeAloneAndRethrow(deps: AppDeps, input: UserInput, entry: NewTranscriptEntry, error: unknown): Promise<never> {
  try {
    const stored = await deps.store.appendTranscript(input.userId, [entry]);
    const fresh = stored.filter((e) => !e.duplicate);
    countStored(deps, fresh);
    if (fresh.length > 0) deps.delivery.deliver(input.userId, fresh);
  } catch {
    // The store is away: the original error says more than this one.
  }
  throw error;
}

function toEngineInput(deps: AppDeps, message: UserMessage): EngineInput {
  switch (message.type) {
    case 'text':
      return { kind: 'text', text: message.text };
    case 'postback':
      return { kind: 'postback', payload: message.payload, label: message.label };
    case 'dialog':
      assertDialog(deps, message.dialogId);
      return { kind: 'start', dialogId: message.dialogId };
  }
}
