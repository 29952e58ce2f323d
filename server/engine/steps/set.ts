import type { StepOf } from '../../definition/schema.ts';
import type { StepHandler } from '../turn/types.ts';

/** Sets, unsets or appends to variables and user-data fields, from literals or templates. */
export const setStep: StepHandler<StepOf<'set'>> = {
  enter(step, ctx) {
    for (const action of step.actions) {
      const scope = action.userData !== undefined ? ctx.userData : ctx.variables;
      const name = action.userData ?? action.variable;
      if (name === undefined) continue;
      const value = action.template !== undefined ? ctx.render(action.template) : action.value;
      if (action.op === 'unset') delete scope[name];
      else if (action.op === 'set') scope[name] = value;
      else {
        const current = scope[name];
        scope[name] = Array.isArray(current)
          ? [...current, value]
          : current === undefined || current === null
            ? [value]
            : [current, value];
      }
    }
    return { kind: 'advance', to: step.next };
  },
};
