import type { StepOf } from '../../definition/schema.ts';
import type { IntegrationResultInput, Next, StepHandler, TurnContext } from '../turn/types.ts';

/** Said as the fatal notice when the step names no errorText. */
export const DEFAULT_INTEGRATION_ERROR_TEXT =
  "Sorry, something went wrong on our side and I can't go on with this conversation. Please try again later.";

/**
 * Asks the caller to run an integration call. Synchronous: the conversation rests on
 * the step (like an input) until the result comes back as an `integrationResult` input;
 * the step takes no text meanwhile. Asynchronous: the call is a durable job and the
 * tree continues at once (no output: the result arrives after the conversation moved on).
 */
export const integrationStep: StepHandler<StepOf<'integration'>> = {
  enter(step, ctx, dialogId) {
    const timing = step.timing ?? 'sync';
    ctx.effects.push({
      type: 'integration',
      dialogId,
      stepId: step.id,
      timing,
      // Later steps of the turn change the scratch; the effect keeps what this step saw.
      variables: structuredClone(withoutProductVariables(ctx.variables)),
      userData: structuredClone(ctx.userData),
    });
    return timing === 'sync' ? { kind: 'await' } : { kind: 'advance', to: step.next };
  },
};

/**
 * The variables a call may read: `$`-named ones are the product's own (the insights trail with the
 * user's words, timers, channel marks), never sent to a service nor kept in a job's payload.
 */
function withoutProductVariables(variables: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(variables)) if (!name.startsWith('$')) kept[name] = value;
  return kept;
}

/** What the conversation does with a finished call: save and go on, or apply the step's error policy. */
export function integrationOutcome(
  step: StepOf<'integration'>,
  ctx: TurnContext,
  input: IntegrationResultInput,
  dialogId: string,
): Next {
  const flag = step.onError.startsWith('flag:') ? step.onError.slice('flag:'.length) : undefined;
  if (input.ok) {
    if (step.output !== undefined) ctx.variables[step.output] = input.output;
    // A flag left from an earlier failure of this step would send the tree down the error branch.
    if (flag !== undefined) {
      keep(ctx, flag, false);
      keep(ctx, `${flag}Error`, undefined);
    }
    return { kind: 'advance', to: step.next };
  }
  ctx.effects.push({
    type: 'warn',
    code: 'integration_error_policy',
    detail: { dialogId, stepId: step.id, errorKind: input.error.kind, policy: step.onError },
  });
  if (flag !== undefined) {
    keep(ctx, flag, true);
    keep(ctx, `${flag}Error`, input.error.kind);
    return { kind: 'advance', to: step.next };
  }
  if (step.onError.startsWith('dialog:')) return { kind: 'goto', dialogId: step.onError.slice('dialog:'.length) };
  ctx.outputs.push({
    type: 'notice',
    level: 'fatal',
    text: ctx.render(step.errorText ?? DEFAULT_INTEGRATION_ERROR_TEXT),
  });
  return { kind: 'end' };
}

/**
 * A flag (or its `<flag>Error`) named after a declared user-data field is kept there, so the
 * userData export shows it to analysts; otherwise it is a variable. Undefined clears it.
 */
function keep(ctx: TurnContext, name: string, value: unknown): void {
  const scope = ctx.definition.userDataFields.includes(name) ? ctx.userData : ctx.variables;
  if (value === undefined) delete scope[name];
  else scope[name] = value;
}
