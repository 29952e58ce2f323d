import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler, TurnContext } from '../turn/types.ts';

/** Sends a named event to the page; the widget runs the listeners the page registered for it. */
export const eventStep: StepHandler<StepOf<'event'>> = {
  enter(step, ctx) {
    ctx.effects.push({
      type: 'botEvent',
      name: step.name,
      payload: renderDeep(ctx, step.payload) as Record<string, unknown>,
    });
    return { kind: 'advance', to: step.next };
  },
};

function renderDeep(ctx: TurnContext, value: unknown): unknown {
  if (typeof value === 'string') return ctx.render(value);
  if (Array.isArray(value)) return value.map((item) => renderDeep(ctx, item));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(ctx, v)]));
  }
  return value;
}
