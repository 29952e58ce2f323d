import { isShortWait, SHORT_WAIT_MS } from '../definition/reaches-out.ts';
import type { Step } from '../definition/schema.ts';
import type { EngineInput, TurnContext } from './turn/types.ts';

/**
 * What a run of steps without input may still do. A run begins with input from
 * outside (the user's text or button, a page event, a dialog start, a trigger)
 * and goes on across the turns its own steps chain: a synchronous integration's
 * result, a failed email or SMS taking its onError, a wait shorter than a second.
 * Without a bound that spans those turns, a `goto` back to an integration step
 * calls the customer's API without end; the per-turn step count never sees it.
 */
export interface RunBudget {
  /** Steps entered so far in this run. */
  steps: number;
  /** Steps that reached outside the bot so far: integration calls, email, SMS, and waits under a second. */
  calls: number;
}

/** Kept in a reserved variable (templates and set steps cannot name a `$` variable), so it outlives the turn. */
const RUN = '$run';

/**
 * Takes the budget out of the variables (steps and effects of the turn never see it):
 * carried on for turns the run chained itself, fresh for input from outside.
 */
export function takeBudget(ctx: TurnContext, input: EngineInput, timerStep: Step | undefined): RunBudget {
  const stored = ctx.variables[RUN] as Partial<RunBudget> | undefined;
  delete ctx.variables[RUN];
  const chained =
    input.kind === 'integrationResult' ||
    input.kind === 'failed' ||
    (input.kind === 'timer' && timerStep?.type === 'wait' && isShortWait(timerStep));
  if (!chained || typeof stored !== 'object' || stored === null) return { steps: 0, calls: 0 };
  return { steps: Number(stored.steps) || 0, calls: Number(stored.calls) || 0 };
}

/**
 * Writes the budget back with the turn's variables, but only when the turn left something
 * that continues the run without input (a sync call, an email or SMS that may fail, a
 * short timer): otherwise no turn will read it, and the variables stay as the bot left them.
 */
export function keepBudget(ctx: TurnContext, budget: RunBudget): void {
  const continues = ctx.effects.some(
    (e) =>
      (e.type === 'integration' && e.timing === 'sync') ||
      e.type === 'email' ||
      e.type === 'sms' ||
      (e.type === 'scheduleTimer' && e.delayMs < SHORT_WAIT_MS),
  );
  if (continues) ctx.variables[RUN] = { steps: budget.steps, calls: budget.calls };
}

export { reachesOut } from '../definition/reaches-out.ts';
