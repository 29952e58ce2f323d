import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../turn/types.ts';

/** Records a snapshot of every user-data field (the userDataSnapshot export), then clears the chosen fields. */
export const clearUserDataStep: StepHandler<StepOf<'clearUserData'>> = {
  enter(step, ctx) {
    const data: Record<string, unknown> = {};
    for (const field of ctx.definition.userDataFields) data[field] = ctx.userData[field] ?? null;
    ctx.effects.push({ type: 'snapshotUserData', data });
    for (const field of step.fields ?? ctx.definition.userDataFields) delete ctx.userData[field];
    return { kind: 'advance', to: step.next };
  },
};
