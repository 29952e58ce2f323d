import type { ErrorObject } from 'ajv';
import { IntegrationConfigError } from './http/integration-error.ts';
import { compileMapping, type CompiledMapping } from './http/mapping.ts';
import type { CompiledService } from './auth/services.ts';
import { integrationStepSchema, type IntegrationStep } from './step-config.ts';
import { describeErrors, type CompiledStepType, type StepTypeRegistry } from './step-types/registry.ts';
import type { TimingMode } from './step-contract/step-type.ts';
import { isTemplated } from './step-types/template-params.ts';

/** A step checked at load, with what it needs at run time resolved once. */
export interface PreparedStep {
  readonly step: IntegrationStep;
  readonly compiled: CompiledStepType;
  readonly service: CompiledService | undefined;
  readonly timing: TimingMode;
  readonly mapping: CompiledMapping | undefined;
}

/**
 * Validates a step definition at load: its shape, that the type and service
 * exist, that the static parameters fit the type's input schema (templated
 * ones are checked when they are filled), and that the mapping compiles.
 * Throws IntegrationConfigError with the path `where` in the message.
 */
export function prepareStep(
  input: unknown,
  where: string,
  registry: StepTypeRegistry,
  services: ReadonlyMap<string, CompiledService>,
  env: Readonly<Record<string, string | undefined>> = {},
): PreparedStep {
  const parsed = integrationStepSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new IntegrationConfigError(
      `${where}${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'is invalid'}`,
    );
  }
  const step = parsed.data;
  const compiled = registry.get(step.type);
  if (!compiled)
    throw new IntegrationConfigError(
      `${where}.type: unknown integration step type "${step.type}" (known: ${registry.names().join(', ')})`,
    );
  const type = compiled.type;

  let service: CompiledService | undefined;
  if (step.service !== undefined) {
    service = services.get(step.service);
    if (!service)
      throw new IntegrationConfigError(
        `${where}.service: no service named "${step.service}" (configured: ${[...services.keys()].join(', ') || 'none'})`,
      );
  } else if (type.kind !== 'dataset' && type.needsService === 'always') {
    throw new IntegrationConfigError(
      `${where}.service: step type "${type.name}" calls a configured service; name one in "service".`,
    );
  }

  if (type.kind === 'code') checkFixedParams(step.params, type.secretParams, type.fixedParams, `${where}.params`, env);

  const copy = structuredClone(step.params);
  if (!compiled.params(copy)) {
    const templated = templatedPaths(step.params, '');
    const real = (compiled.params.errors ?? []).filter((e) => !coveredByTemplate(e, templated));
    if (real.length > 0) throw new IntegrationConfigError(`${where}.params: ${describeErrors(real)}`);
  }

  let mapping: CompiledMapping | undefined;
  if (step.mapping?.startsWith('@')) {
    const expression = type.mappings?.[step.mapping.slice(1)];
    if (!expression) {
      throw new IntegrationConfigError(
        `${where}.mapping: step type "${type.name}" offers no mapping ${step.mapping} (offers: ${
          Object.keys(type.mappings ?? {})
            .map((m) => `@${m}`)
            .join(', ') || 'none'
        })`,
      );
    }
    mapping = compileMapping(expression, `${where}.mapping`);
  } else if (step.mapping) mapping = compileMapping(step.mapping, `${where}.mapping`);

  return { step, compiled, service, timing: step.timing ?? type.defaultTiming, mapping };
}

function templatedPaths(value: unknown, at: string): string[] {
  if (typeof value === 'string') return isTemplated(value) ? [at] : [];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) =>
      templatedPaths(inner, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
    );
  }
  return [];
}

/** An error about a templated value (or inside one) cannot be judged before the value is known. */
function coveredByTemplate(error: ErrorObject, templated: readonly string[]): boolean {
  return templated.some((path) => error.instancePath === path || error.instancePath.startsWith(`${path}/`));
}

const SECRET_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * Parameters that name a secret, or an address a secret is sent to, are taken as written: a
 * template there would let a value a user typed pick which secret is read, or where it goes.
 * A named secret must be set (in the environment, where the studio's secrets arrive too), as a
 * service's tokenEnv must: a step that would only fail at its first call stops start-up instead.
 */
function checkFixedParams(
  params: Readonly<Record<string, unknown>>,
  secretParams: readonly string[],
  fixedParams: readonly string[],
  where: string,
  env: Readonly<Record<string, string | undefined>>,
): void {
  for (const name of new Set([...secretParams, ...fixedParams])) {
    if (isTemplated(params[name])) {
      throw new IntegrationConfigError(
        `${where}.${name}: must be written as it is, without {{templates}}: it names a secret or an address a secret is sent to.`,
      );
    }
  }
  for (const name of secretParams) {
    const secret = params[name];
    if (secret === undefined) continue;
    if (typeof secret !== 'string' || !SECRET_NAME.test(secret)) {
      throw new IntegrationConfigError(
        `${where}.${name}: must be the name of a secret (an environment variable) such as "SLACK_BOT_TOKEN", never the secret itself.`,
      );
    }
    if ((env[secret] ?? '').trim() === '') {
      throw new IntegrationConfigError(
        `${where}.${name}: the secret ${secret} is not set; set the environment variable ${secret} (or the studio secret of that name) to the value this step authenticates with.`,
      );
    }
  }
}
