import { DefinitionError } from '../definition/load.ts';
import type { BotDefinition, StepOf } from '../definition/schema.ts';
import type { IntegrationCaller } from '../ports/integrations.ts';
import { IntegrationConfigError } from './http/integration-error.ts';
import type { PreparedStep } from './prepare-step.ts';
import { IntegrationRuntime, type IntegrationRuntimeDeps } from './run-integration.ts';
import type { IntegrationStepInput } from './step-config.ts';

/**
 * Builds the integration layer from a bot definition: the settings block
 * (`integrations`: services, datasets) and every `integration` step are checked
 * at start-up, so a mistake stops the server with the definition path and the
 * problem instead of failing in a conversation. Also fills each step's timing
 * with its type's default (sendTrackingEvent is async), so the engine knows
 * whether the user waits.
 */
export function createBotIntegrations(
  definition: BotDefinition,
  source: string,
  deps: IntegrationRuntimeDeps,
): { runtime: IntegrationRuntime; caller: IntegrationCaller } {
  let runtime: IntegrationRuntime;
  try {
    runtime = IntegrationRuntime.create(definition.integrations, deps);
  } catch (error) {
    if (error instanceof IntegrationConfigError) throw new DefinitionError(source, [error.message]);
    throw error;
  }
  const prepared = new Map<string, PreparedStep>();
  const problems: string[] = [];
  definition.dialogs.forEach((dialog, d) => {
    dialog.steps.forEach((step, s) => {
      if (step.type !== 'integration') return;
      const at = `dialogs[${d}].steps[${s}]`;
      try {
        const ready = runtime.prepare(toLayerStep(step), at);
        prepared.set(key(dialog.id, step.id), ready);
        // Start-up only, before any turn runs: the engine reads the resolved timing from the step.
        step.timing = ready.timing;
      } catch (error) {
        if (!(error instanceof IntegrationConfigError)) throw error;
        // The layer calls the step type "type"; the definition calls it "integration".
        problems.push(error.message.replace(`${at}.type:`, `${at}.integration:`));
      }
    });
  });
  if (problems.length > 0) throw new DefinitionError(source, problems);

  return {
    runtime,
    caller: {
      async run(at, context) {
        const step = prepared.get(key(at.dialogId, at.stepId));
        if (!step) return noSuchStep(at);
        return runtime.run(step, context, at);
      },
      asyncJob(at, context) {
        const step = prepared.get(key(at.dialogId, at.stepId));
        if (!step) return noSuchStep(at);
        return { ok: true, job: runtime.asyncJob(step, context, at) };
      },
    },
  };
}

/** The integration layer's view of a definition step: the definition's own fields (id, next, errorText) left out. */
export function toLayerStep(step: StepOf<'integration'>): IntegrationStepInput {
  const { integration, service, params, timing, timeoutMs, onError, output, mapping, maxAttempts } = step;
  return {
    type: integration,
    params,
    onError,
    ...(service === undefined ? {} : { service }),
    ...(timing === undefined ? {} : { timing }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(output === undefined ? {} : { output }),
    ...(mapping === undefined ? {} : { mapping }),
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
  };
}

function key(dialogId: string, stepId: string): string {
  return `${dialogId}\u0000${stepId}`;
}

/** The answer to a call that names a step the bot does not have. */
function noSuchStep(at: { readonly dialogId: string; readonly stepId: string }) {
  return {
    ok: false as const,
    error: {
      kind: 'invalid_params' as const,
      message: `There is no integration step "${at.stepId}" in dialog "${at.dialogId}".`,
    },
  };
}
