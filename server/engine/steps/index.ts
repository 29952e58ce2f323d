import type { Step } from '../../definition/schema.ts';
import type { StepHandler } from '../types.ts';
import { endStep } from './end.ts';
import { gotoStep } from './goto.ts';
import { inputStep } from './input.ts';
import { messageStep } from './message.ts';

/** One handler per step kind; the mapped type makes a missing kind a compile error. */
export const stepHandlers: { readonly [K in Step['type']]: StepHandler<Extract<Step, { type: K }>> } = {
  message: messageStep,
  input: inputStep,
  goto: gotoStep,
  end: endStep,
};

export function handlerFor<S extends Step>(step: S): StepHandler<S> {
  return stepHandlers[step.type] as unknown as StepHandler<S>;
}
