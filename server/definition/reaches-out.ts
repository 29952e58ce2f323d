import { parseDuration } from './duration.ts';
import type { Step, StepOf } from './schema.ts';

/** Waits at least this long bound a loop's pace by themselves: the timer that ends one starts a new run. */
export const SHORT_WAIT_MS = 1000;

/** Steps that reach outside the bot, or come back at once on their own (the run budget counts them; `check` warns of loops through them). */
export function reachesOut(step: Step): boolean {
  return (
    step.type === 'integration' ||
    step.type === 'email' ||
    step.type === 'sms' ||
    (step.type === 'wait' && isShortWait(step))
  );
}

export function isShortWait(step: StepOf<'wait'>): boolean {
  return (parseDuration(step.duration) ?? 0) < SHORT_WAIT_MS;
}
