import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../types.ts';

export const messageStep: StepHandler<StepOf<'message'>> = {
  enter(step, ctx) {
    ctx.outputs.push({ type: 'text', text: ctx.render(step.text) });
    return { kind: 'advance', to: step.next };
  },
};
