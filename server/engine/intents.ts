import { cancelTimers } from './timers.ts';
import type { NlpResult, Next, TurnContext } from './types.ts';

export interface Where {
  readonly dialogId: string | null;
  readonly stepId: string | null;
  readonly stepType: string | null;
}

/**
 * Routes classified text to its intent's dialog when the score passes the
 * threshold. Either way an nlpLog row is asked for: processed=true when
 * routed, false when the text stays unprocessed. Returns the jump, or
 * undefined when nothing passed.
 */
export function routeIntent(ctx: TurnContext, query: string, nlp: NlpResult | undefined, threshold: number, where: Where): Next | undefined {
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
        ? { score: nlp.score, threshold, dialog: passed ? intent.dialog : null, classifications: nlp.classifications.slice(0, 3) }
        : null,
      processed: passed,
    },
  });
  if (!passed) return undefined;
  cancelTimers(ctx, (timer) => timer.dialogStart);
  return { kind: 'goto', dialogId: intent.dialog };
}
