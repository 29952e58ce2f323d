import { cancelTimers } from './timers.ts';
import type { NlpResult, Next, TurnContext } from './types.ts';

export interface Where {
  readonly dialogId: string | null;
  readonly stepId: string | null;
  readonly stepType: string | null;
}

/** Only when the classification came without a calibrated threshold (a caller outside the server's own path). */
const UNCALIBRATED_THRESHOLD = 0.7;

/** The threshold a text must reach: the step's own, else the definition's, else the one the classifier calibrated for the bot at load. */
export function intentThreshold(ctx: TurnContext, nlp: NlpResult | undefined, stepThreshold?: number): number {
  return stepThreshold ?? ctx.definition.settings.nlpThreshold ?? nlp?.threshold ?? UNCALIBRATED_THRESHOLD;
}

/**
 * Routes classified text to its intent's dialog when the score passes the
 * threshold. Either way an nlpLog row is asked for: processed=true when
 * routed, false when the text stays unprocessed. Returns the jump, or
 * undefined when nothing passed.
 */
export function routeIntent(
  ctx: TurnContext,
  query: string,
  nlp: NlpResult | undefined,
  threshold: number,
  where: Where,
): Next | undefined {
  const intent = nlp?.intent ? ctx.definition.intents.find((i) => i.id === nlp.intent) : undefined;
  const passed = intent !== undefined && nlp !== undefined && nlp.score >= threshold;
  ctx.effects.push({
    type: 'nlpLog',
    fields: {
      ...where,
      query,
      modelId: nlp?.modelId ?? null,
      intent: nlp?.intent ?? null,
      result: nlp
        ? {
            score: nlp.score,
            threshold,
            dialog: passed ? intent.dialog : null,
            classifications: nlp.classifications.slice(0, 3),
          }
        : null,
      processed: passed,
    },
  });
  if (!passed) return undefined;
  cancelTimers(ctx, (timer) => timer.dialogStart);
  return { kind: 'goto', dialogId: intent.dialog };
}
