import type { StepOf } from '../../definition/schema.ts';
import { intentThreshold, routeIntent } from '../turn/intents.ts';
import { toNext } from '../turn/jump.ts';
import type { StepHandler } from '../turn/types.ts';
import { renderQuickReplies } from './message.ts';

/** Waits for free text and routes it to the classified intent's dialog. */
export const nlpStep: StepHandler<StepOf<'nlp'>> = {
  enter(step, ctx) {
    if (step.prompt !== undefined) {
      ctx.outputs.push({
        type: 'text',
        text: ctx.render(step.prompt, { markdown: true }),
        ...(step.quickReplies ? { quickReplies: renderQuickReplies(step.quickReplies) } : {}),
      });
    }
    return { kind: 'await' };
  },
  needs() {
    return { nlp: true, faq: false };
  },
  receive(step, ctx, text, _retries, input) {
    const threshold = intentThreshold(ctx, input.understanding?.nlp, step.threshold);
    const routed = routeIntent(ctx, text, input.understanding?.nlp, threshold, {
      dialogId: input.dialogId,
      stepId: step.id,
      stepType: 'nlp',
    });
    if (routed) return routed;
    if (step.onNoMatch !== undefined) return toNext(step.onNoMatch);
    ctx.outputs.push({ type: 'text', text: ctx.definition.settings.fallbackText });
    return { kind: 'retry' };
  },
};
