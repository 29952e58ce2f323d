import type { Target } from '../../definition/common.ts';
import type { Next } from './types.ts';

/** A definition target as the engine's next move: a step id stays in the dialog, an object jumps. */
export function toNext(target: Target): Next {
  return typeof target === 'string'
    ? { kind: 'advance', to: target }
    : { kind: 'goto', dialogId: target.dialog, stepId: target.step };
}
