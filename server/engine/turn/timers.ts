import type { StepOf } from '../../definition/schema.ts';
import type { TurnContext } from './types.ts';

/**
 * Wait-step timers the user has running, kept in the reserved variable `$timers`
 * (templates and set steps cannot name a `$` variable). The durable job lives
 * outside; this record decides whether a fired timer still counts.
 */
export interface ActiveTimer {
  readonly dialogId: string;
  readonly stepId: string;
  readonly dialogStart: boolean;
  readonly userInput: boolean;
  readonly pageEvents: readonly string[];
}

const TIMERS = '$timers';

export function activeTimers(ctx: TurnContext): Readonly<Record<string, ActiveTimer>> {
  const value = ctx.variables[TIMERS];
  return value && typeof value === 'object' ? (value as Record<string, ActiveTimer>) : {};
}

/** One timer per wait step and user: entering the step again restarts it. */
export function startTimer(ctx: TurnContext, step: StepOf<'wait'>, dialogId: string, delayMs: number): void {
  const timerId = `${dialogId}.${step.id}`;
  ctx.variables[TIMERS] = {
    ...activeTimers(ctx),
    [timerId]: {
      dialogId,
      stepId: step.id,
      dialogStart: step.cancelOn.dialogStart,
      userInput: step.cancelOn.userInput,
      pageEvents: step.cancelOn.pageEvents,
    } satisfies ActiveTimer,
  };
  ctx.effects.push({ type: 'scheduleTimer', timerId, delayMs });
}

/** Cancels every timer the predicate picks; the caller cancels their jobs. */
export function cancelTimers(ctx: TurnContext, pick: (timer: ActiveTimer) => boolean): void {
  const timers = activeTimers(ctx);
  const kept: Record<string, ActiveTimer> = {};
  let changed = false;
  for (const [timerId, timer] of Object.entries(timers)) {
    if (pick(timer)) {
      changed = true;
      ctx.effects.push({ type: 'cancelTimer', timerId });
    } else kept[timerId] = timer;
  }
  if (changed) setTimers(ctx, kept);
}

/** Takes a due timer out of the record; undefined when it was cancelled meanwhile. */
export function takeTimer(ctx: TurnContext, timerId: string): ActiveTimer | undefined {
  const timers = activeTimers(ctx);
  const timer = timers[timerId];
  if (!timer) return undefined;
  const { [timerId]: _taken, ...rest } = timers;
  setTimers(ctx, rest);
  return timer;
}

function setTimers(ctx: TurnContext, timers: Record<string, ActiveTimer>): void {
  if (Object.keys(timers).length === 0) delete ctx.variables[TIMERS];
  else ctx.variables[TIMERS] = timers;
}
