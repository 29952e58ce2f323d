import path from 'node:path';
import { systemClock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';
import { IntegrationConfigError } from '../integrations/http/integration-error.ts';
import { IntegrationRuntime } from '../integrations/run-integration.ts';
import { integrationSettingsSchema } from '../integrations/settings.ts';
import { toLayerStep } from '../integrations/bot-steps.ts';
import { loadStepTypeModules, StepTypeModuleError } from '../integrations/step-types/load-modules.ts';
import { BUILT_IN_STEP_TYPES, registryFor } from '../integrations/step-types/registry.ts';
import type { CodeStepType } from '../integrations/step-contract/step-type.ts';
import { checkInputFreeLoops } from '../definition/cycles.ts';
import { definitionProblems, toProblem } from '../definition/load.ts';
import { isError, type Problem } from '../definition/problem.ts';
import { readDefinitionSource } from '../definition/read-source.ts';
import type { BotDefinition } from '../definition/schema.ts';
import { checkTemplateNames } from '../definition/template-names.ts';
import { checkTriggerTemplates, whatsAppSetup } from '../definition/trigger-templates.ts';
import { zodProblems } from '../definition/zod-problems.ts';

export type { Problem } from '../definition/problem.ts';
export { formatProblem, isError } from '../definition/problem.ts';

export interface CheckOptions {
  /** Where wait steps' durationEnv and integration secrets are read; process.env when omitted. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface CheckResult {
  /** The definition as written (parsed, before defaults and the environment); absent when the text did not parse. */
  readonly written?: unknown;
  /** The definition, ready to run; absent when any problem is an error. */
  readonly definition?: BotDefinition;
  /** The bot's own step types (`stepTypes` modules), loaded; absent with the definition. */
  readonly stepTypes?: readonly CodeStepType[];
  /** Every problem found, errors and warnings, in file order per check. */
  readonly problems: readonly Problem[];
}

/**
 * Runs every check start-up runs, without opening a store or a port: the file's syntax, the
 * schema, references, the environment (durations, integration secrets), integration settings and
 * steps against their types' parameter schemas, the bot's step type modules, then the author's
 * lints (template names, loops that call out without input). `check` and start-up both call it.
 */
export async function checkDefinitionFile(file: string, options: CheckOptions = {}): Promise<CheckResult> {
  const source = await readDefinitionSource(file);
  if ('problems' in source) return { problems: source.problems };
  const result = { ...(await checkDefinition(source.value, file, options)), written: source.value };
  const { lineOf } = source;
  if (!lineOf) return result;
  // YAML is written by hand with comments: name the line, which the path alone does not give.
  return {
    ...result,
    problems: result.problems.map((p) => {
      const line = lineOf(p.path);
      return line === undefined ? p : { ...p, path: `${p.path} (line ${line})` };
    }),
  };
}

/**
 * The checks of checkDefinitionFile on a parsed definition (a stored version, a draft, a request
 * body): the same problems `chatbot check` prints. `file` places the step type modules; the
 * caller bounds the value first (read-source.ts's DEFINITION_BOUNDS).
 */
export async function checkDefinition(input: unknown, file: string, options: CheckOptions = {}): Promise<CheckResult> {
  const env = options.env ?? process.env;
  const validated = definitionProblems(input, { env });
  if (!validated.definition) return { problems: validated.problems };
  const definition = validated.definition;

  const problems: Problem[] = [];
  let stepTypes: CodeStepType[] = [];
  try {
    stepTypes = await loadStepTypeModules(definition.stepTypes, file);
  } catch (error) {
    if (!(error instanceof StepTypeModuleError)) throw error;
    const at = definition.stepTypes.findIndex(
      (entry) => path.resolve(path.dirname(path.resolve(file)), entry) === error.file,
    );
    const problem = error.message.slice(`Step type module ${error.file}: `.length);
    problems.push({ path: at < 0 ? 'stepTypes' : `stepTypes[${at}]`, message: `${error.file}: ${problem}` });
  }
  if (problems.length === 0) problems.push(...integrationProblems(definition, env, stepTypes));
  problems.push(...checkTemplateNames(definition), ...checkInputFreeLoops(definition));
  problems.push(...checkTriggerTemplates(definition, whatsAppSetup(env)));
  return problems.some(isError) ? { problems } : { definition, stepTypes, problems };
}

/** The integration layer's own checks: settings (services, datasets, secrets) and every integration step. */
function integrationProblems(
  definition: BotDefinition,
  env: Readonly<Record<string, string | undefined>>,
  stepTypes: readonly CodeStepType[],
): Problem[] {
  // Every settings problem at once, in the definition's words; the layer itself stops at the first.
  const settings = integrationSettingsSchema.safeParse(definition.integrations);
  if (!settings.success) {
    return zodProblems(settings.error.issues, definition.integrations, integrationSettingsSchema).map((p) => ({
      ...p,
      path: p.path === '(root)' ? 'integrations' : `integrations${p.path.startsWith('[') ? '' : '.'}${p.path}`,
    }));
  }
  let runtime: IntegrationRuntime;
  try {
    runtime = IntegrationRuntime.create(definition.integrations, {
      store: noStore,
      clock: systemClock,
      logger: silent,
      env,
      stepTypes,
      registry: registryFor([...BUILT_IN_STEP_TYPES, ...stepTypes]),
    });
  } catch (error) {
    if (error instanceof IntegrationConfigError) return [toProblem(error.message)];
    throw error;
  }
  const problems: Problem[] = [];
  definition.dialogs.forEach((dialog, d) =>
    dialog.steps.forEach((step, s) => {
      if (step.type !== 'integration') return;
      const at = `dialogs[${d}].steps[${s}]`;
      try {
        runtime.prepare(toLayerStep(step), at);
      } catch (error) {
        if (!(error instanceof IntegrationConfigError)) throw error;
        // The layer calls the step type "type"; the definition calls it "integration".
        problems.push(toProblem(error.message.replace(`${at}.type:`, `${at}.integration:`)));
      }
    }),
  );
  void runtime.close();
  return problems;
}

/** Checking opens no store: building the integration layer only keeps a reference, and nothing here runs a call. */
const noStore = new Proxy({} as Store, {
  get(_target, name) {
    throw new Error(`checking a definition does not use the store (asked for ${String(name)})`);
  },
});

const silent: Logger = { info() {}, warn() {}, error() {} };
