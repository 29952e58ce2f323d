import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../types.ts';

export const inputStep: StepHandler<StepOf<'input'>> = {
  enter(step, ctx) {
    ctx.outputs.push({ type: 'text', text: ctx.render(step.prompt) });
    return { kind: 'await' };
  },
  receive(step, ctx, text) {
    const answer = text.trim();
    if (answer === '') {
      ctx.outputs.push({ type: 'text', text: ctx.render(step.prompt) });
      return { kind: 'retry' };
    }
    if ('userData' in step.saveTo) ctx.userData[step.saveTo.userData] = answer;
    else ctx.variables[step.saveTo.variable] = answer;
    return { kind: 'advance', to: step.next };
  },
};
