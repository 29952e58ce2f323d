import type { UserMessage } from '../../shared/protocol.ts';
import type { EngineInput } from '../engine/turn/types.ts';
import type { AppDeps } from './deps.ts';
import { assertDialog } from './start-dialog.ts';

/** What the engine hears for a user's message. */
export function toEngineInput(deps: AppDeps, message: UserMessage): EngineInput {
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
