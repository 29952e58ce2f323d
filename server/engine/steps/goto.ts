import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../turn/types.ts';

export const gotoStep: StepHandler<StepOf<'goto'>> = {
  enter(step) {
    return { kind: 'goto', dialogId: step.dialog, stepId: step.step };
  },
};
