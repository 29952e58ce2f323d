import { parseDuration } from '../../definition/duration.ts';
import type { StepOf } from '../../definition/schema.ts';
import { startTimer } from '../turn/timers.ts';
import type { StepHandler } from '../turn/types.ts';

/**
 * Starts a durable timer: when it fires, the conversation goes to `then`,
 * unless something in `cancelOn` happened first. The conversation rests here
 * meanwhile (text goes to NLP), or moves straight on when `background` is set.
 */
export const waitStep: StepHandler<StepOf<'wait'>> = {
  enter(step, ctx, dialogId) {
    startTimer(ctx, step, dialogId, parseDuration(step.duration) ?? 0);
    return step.background ? { kind: 'advance', to: step.next } : { kind: 'await' };
  },
};
