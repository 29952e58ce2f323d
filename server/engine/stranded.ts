import type { BotDefinition } from '../definition/schema.ts';
import { recoveryFor, type Recovery } from './recovery.ts';
import { handlerFor } from './steps/index.ts';

/**
 * The positions users may rest on in `before` (steps that wait: for the user's words, a
 * timer, an integration result) that `after` no longer has, each with where recovery
 * would move them. Pure; `check --compare` prints it before a redeploy.
 */
export function strandedPositions(before: BotDefinition, after: BotDefinition): Recovery[] {
  const out: Recovery[] = [];
  for (const dialog of before.dialogs) {
    for (const step of dialog.steps) {
      const rests = handlerFor(step).receive !== undefined || step.type === 'wait' || step.type === 'integration';
      if (!rests) continue;
      const recovery = recoveryFor(after, { dialogId: dialog.id, stepId: step.id, awaiting: true, retries: 0 });
      if (recovery) out.push(recovery);
    }
  }
  return out;
}
