import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../types.ts';
import { splitList } from './split-list.ts';

/** Asks the caller to send an SMS; a failure comes back as a `failed` input that follows onError. */
export const smsStep: StepHandler<StepOf<'sms'>> = {
  enter(step, ctx, dialogId) {
    ctx.effects.push({
      type: 'sms',
      dialogId,
      stepId: step.id,
      to: splitList(ctx.render(step.to)),
      message: ctx.render(step.message),
      link: step.link !== undefined ? ctx.render(step.link) || null : null,
    });
    return { kind: 'advance', to: step.next };
  },
};
