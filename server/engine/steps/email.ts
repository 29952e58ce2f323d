import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../types.ts';
import { splitList } from './split-list.ts';

/** Asks the caller to send an email; a failure comes back as a `failed` input that follows onError. */
export const emailStep: StepHandler<StepOf<'email'>> = {
  enter(step, ctx, dialogId) {
    ctx.effects.push({
      type: 'email',
      dialogId,
      stepId: step.id,
      to: splitList(ctx.render(step.to)),
      cc: step.cc !== undefined ? splitList(ctx.render(step.cc)) : [],
      replyTo: step.replyTo !== undefined ? ctx.render(step.replyTo) || null : null,
      subject: ctx.render(step.subject),
      body: ctx.render(step.body),
    });
    return { kind: 'advance', to: step.next };
  },
};
