import type { StepOf } from '../../definition/schema.ts';
import { toNext } from '../turn/jump.ts';
import type { StepHandler } from '../turn/types.ts';

/** Only when the match came without a calibrated threshold (a caller outside the server's own path). */
const UNCALIBRATED_FAQ_THRESHOLD = 0.6;

/** Waits for a question, answers it from the closest FAQ pair, and logs every utterance with its score. */
export const faqStep: StepHandler<StepOf<'faq'>> = {
  enter(step, ctx) {
    if (step.prompt !== undefined)
      ctx.outputs.push({ type: 'text', text: ctx.render(step.prompt, { markdown: true }) });
    return { kind: 'await' };
  },
  needs() {
    return { nlp: false, faq: true };
  },
  receive(step, ctx, text, _retries, input) {
    const faq = input.understanding?.faq;
    // The step's own, else the definition's, else the one the matcher calibrated for the bot at load.
    const threshold =
      step.threshold ?? ctx.definition.settings.faqThreshold ?? faq?.threshold ?? UNCALIBRATED_FAQ_THRESHOLD;
    const pair = faq?.id ? ctx.definition.faq.find((p) => p.id === faq.id) : undefined;
    const matched = pair !== undefined && faq !== undefined && faq.score >= threshold;
    ctx.effects.push({
      type: 'faqLog',
      fields: {
        intent: faq?.id ?? null,
        score: faq?.score ?? 0,
        text,
        stepId: step.id,
        dialogId: input.dialogId,
        matched,
        otherClassifications: (faq?.others ?? []).map((o) => ({ intent: o.id, score: o.score })),
      },
    });
    if (matched) {
      ctx.outputs.push({ type: 'text', text: ctx.render(pair.answer, { markdown: true }) });
      return { kind: 'advance', to: step.next };
    }
    ctx.outputs.push({
      type: 'text',
      text: ctx.render(step.noMatchText ?? ctx.definition.settings.fallbackText, { markdown: true }),
    });
    return step.onNoMatch !== undefined ? toNext(step.onNoMatch) : { kind: 'advance', to: step.next };
  },
};
