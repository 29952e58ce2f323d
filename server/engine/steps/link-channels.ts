import type { StepOf } from '../../definition/schema.ts';
import { toNext } from '../turn/jump.ts';
import type { StepHandler } from '../turn/types.ts';

/** How long a code works when the step does not say. */
export const LINK_CODE_MINUTES = 10;

const CODE_PLACE = /\{\{\s*linkCode\s*\}\}/g;

/**
 * Shows the one-time code the caller drew (ctx.linkCode) and asks the caller to keep it
 * (a `linkCode` effect), then waits: the code arriving on another channel comes back as a
 * `linked` input (engine.ts), which goes on at `next`. Anything else written here instead goes
 * to `onOtherText`, or on at `next` unlinked.
 */
export const linkChannelsStep: StepHandler<StepOf<'linkChannels'>> = {
  enter(step, ctx, dialogId) {
    const code = ctx.linkCode;
    // The caller draws a code for every turn of a bot with this step; without one nothing can be linked.
    if (code === undefined) return { kind: 'advance', to: step.next };
    ctx.outputs.push({ type: 'text', text: ctx.render(step.text.replace(CODE_PLACE, code), { markdown: true }) });
    ctx.effects.push({
      type: 'linkCode',
      dialogId,
      stepId: step.id,
      code,
      minutes: step.minutes ?? LINK_CODE_MINUTES,
    });
    return { kind: 'await' };
  },
  receive(step) {
    return step.onOtherText !== undefined ? toNext(step.onOtherText) : { kind: 'advance', to: step.next };
  },
};
