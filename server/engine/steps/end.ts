import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../turn/types.ts';

export const endStep: StepHandler<StepOf<'end'>> = {
  enter() {
    return { kind: 'end' };
  },
};
