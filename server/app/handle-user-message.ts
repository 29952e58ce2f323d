import type { UserMessage } from '../../shared/protocol.ts';
import type { EngineInput } from '../engine/types.ts';
import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
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
 * open widgets, let the bot answer. Resolves with the stored entry's seq,
 * which the widget is acked with.
 */
export function handleUserMessage(deps: AppDeps, input: UserInput): Promise<{ seq: number; duplicate: boolean }> {
  const engineInput = toEngineInput(deps, input.message);
  return deps.turns.run(input.userId, async () => {
    const now = deps.clock.now();
    const [entry] = await deps.store.appendTranscript(input.userId, [
      { from: 'user', clientId: input.clientId, at: now, message: input.message },
    ]);
    if (!entry) throw new Error('the store returned no transcript entry');
    if (entry.duplicate) return { seq: entry.seq, duplicate: true };
    // "Typing…" only for answers that take a while (a mail server, a slow model): an
    // instant answer would just flicker the indicator, and costs two more pushes per turn.
    let typing = false;
    const indicator = setTimeout(() => {
      typing = true;
      deps.delivery.typing(input.userId, true);
    }, TYPING_DELAY_MS);
    // The user's own entry (for their other open widgets) goes out with the bot's first
    // answer in one push; it still goes out alone when the turn says nothing or fails.
    let delivered = false;
    try {
      await applyTurn(deps, input.userId, engineInput, now, {
        userWrote: true,
        deliverFirst: () => {
          delivered = true;
          return [entry];
        },
      });
    } finally {
      clearTimeout(indicator);
      if (!delivered) deps.delivery.deliver(input.userId, [entry]);
      if (typing) deps.delivery.typing(input.userId, false);
    }
    return { seq: entry.seq, duplicate: false };
  });
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
