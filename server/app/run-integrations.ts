import type { Effect, EngineInput, IntegrationEffect } from '../engine/turn/types.ts';
import type { IntegrationCallResult } from '../ports/integrations.ts';
import type { NewJob } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { KeyedTokenBuckets } from './token-bucket.ts';

/** How the result re-enters the engine: applyTurn, passed in so this file does not import it back. */
export type ContinueTurn = (
  deps: AppDeps,
  userId: string,
  input: EngineInput,
  now: number,
  options: { readonly userWrote: false },
) => Promise<unknown>;

/**
 * Queues the turn's synchronous integration call (the engine stops at the first, so there is
 * at most one) as the user's next task: the current turn (and the ack of the message that
 * started it) finishes at once, and whatever the user writes meanwhile waits behind the call.
 * The widget shows the typing indicator while it runs; the result then re-enters the engine.
 */
export function queueSyncIntegrations(
  deps: AppDeps,
  userId: string,
  effects: readonly Effect[],
  continueTurn: ContinueTurn,
): void {
  const effect = effects.find((e): e is IntegrationEffect => e.type === 'integration' && e.timing === 'sync');
  if (!effect) return;
  void deps.turns
    .run(userId, async () => {
      const input = await runSyncIntegration(deps, userId, effect);
      await continueTurn(deps, userId, input, deps.clock.now(), { userWrote: false });
    })
    .catch((error: unknown) =>
      deps.logger.error(
        { userId, dialogId: effect.dialogId, stepId: effect.stepId, code: 'integration_turn_failed', err: error },
        'the result of an integration step could not be applied; the conversation stays on the step',
      ),
    );
}

/** Runs one synchronous call under the typing indicator; the answer is the input that continues the conversation. */
export async function runSyncIntegration(
  deps: AppDeps,
  userId: string,
  effect: IntegrationEffect,
): Promise<EngineInput> {
  deps.delivery.typing(userId, true);
  let result: IntegrationCallResult;
  try {
    result = await call(deps, userId, effect);
  } finally {
    deps.delivery.typing(userId, false);
  }
  const at = { dialogId: effect.dialogId, stepId: effect.stepId };
  return result.ok
    ? { kind: 'integrationResult', ...at, ok: true, output: result.output }
    : { kind: 'integrationResult', ...at, ok: false, error: result.error };
}

/**
 * An asynchronous step's durable job, for the turn's outbox (turn-outbox.ts): the conversation
 * moves on at once, so a step that cannot be scheduled (over the user's call limit, no
 * integration layer) is only logged, and null is returned.
 */
export function asyncIntegrationJob(deps: AppDeps, userId: string, effect: IntegrationEffect): NewJob | null {
  const refused = (kind: string, reason: string) => {
    deps.logger.error(
      { userId, dialogId: effect.dialogId, stepId: effect.stepId, code: 'integration_not_scheduled', kind, reason },
      'an asynchronous integration step could not be scheduled; the conversation went on without it',
    );
    return null;
  };
  if (!deps.integrations)
    return refused('unconfigured', 'This server runs no integration layer, so integration steps cannot call anything.');
  if (!callBuckets(deps).take(`${userId}\n${serviceOf(deps, effect)}`)) {
    return refused(
      'rate_limited',
      `More than ${deps.integrationCallsPerMinute ?? DEFAULT_CALLS_PER_MINUTE} calls a minute to ${serviceOf(deps, effect)} for this user.`,
    );
  }
  const prepared = deps.integrations.asyncJob(
    { dialogId: effect.dialogId, stepId: effect.stepId },
    { userId, variables: effect.variables, userData: effect.userData },
  );
  return prepared.ok ? prepared.job : refused(prepared.error.kind, prepared.error.message);
}

async function call(deps: AppDeps, userId: string, effect: IntegrationEffect): Promise<IntegrationCallResult> {
  if (!deps.integrations) {
    return {
      ok: false,
      error: {
        kind: 'unconfigured',
        message: 'This server runs no integration layer, so integration steps cannot call anything.',
      },
    };
  }
  const service = serviceOf(deps, effect);
  if (!callBuckets(deps).take(`${userId}\n${service}`)) {
    const perMinute = deps.integrationCallsPerMinute ?? DEFAULT_CALLS_PER_MINUTE;
    deps.logger.warn(
      {
        userId,
        dialogId: effect.dialogId,
        stepId: effect.stepId,
        service,
        code: 'integration_rate_limited',
        perMinute,
      },
      "a user's integration calls to this service passed INTEGRATION_USER_RATE_LIMIT; the step failed with kind rate_limited and followed its onError",
    );
    return {
      ok: false,
      error: { kind: 'rate_limited', message: `More than ${perMinute} calls a minute to ${service} for this user.` },
    };
  }
  try {
    return await deps.integrations.run(
      { dialogId: effect.dialogId, stepId: effect.stepId },
      { userId, variables: effect.variables, userData: effect.userData },
    );
  } catch (error) {
    // The port promises not to throw for a failed call; anything else (the store down while scheduling) is a failure too.
    return { ok: false, error: { kind: 'internal', message: (error as Error).message } };
  }
}

/** Default of INTEGRATION_USER_RATE_LIMIT. */
const DEFAULT_CALLS_PER_MINUTE = 30;

/**
 * One bucket per user and service, per server: one user's conversation (or a bot
 * author's loop) cannot turn the bot into a flood against the customer's own API.
 */
const buckets = new WeakMap<AppDeps, KeyedTokenBuckets>();
function callBuckets(deps: AppDeps): KeyedTokenBuckets {
  let found = buckets.get(deps);
  if (!found)
    buckets.set(
      deps,
      (found = new KeyedTokenBuckets(deps.integrationCallsPerMinute ?? DEFAULT_CALLS_PER_MINUTE, () =>
        deps.clock.now(),
      )),
    );
  return found;
}

/** What the step calls, as the limit counts it: its configured service, else its step type. */
function serviceOf(deps: AppDeps, effect: IntegrationEffect): string {
  const step = deps.definition.dialogs.find((d) => d.id === effect.dialogId)?.steps.find((s) => s.id === effect.stepId);
  if (step?.type !== 'integration') return 'unknown';
  return step.service ?? step.integration;
}
