import { Ajv } from 'ajv';
import type { CodeStepType, JsonSchema, StepContext, StepLevel, TimingMode } from './step-type.ts';

/**
 * A step type as a bot's own module writes it (definition `stepTypes`, docs/integrations.md).
 * The module default-exports a plain object of this shape; it needs no import from the
 * product, and a JavaScript module can still have its editor check it with
 * `/** @type {import('<path to the product>/server/integrations/define-step-type.ts').StepTypeModule} *\/`.
 */
export interface StepTypeModule {
  /** How a definition's integration step names it; must not be a built-in name. */
  readonly name: string;
  readonly level: StepLevel;
  /** One sentence for people writing bot definitions. */
  readonly description?: string;
  /** JSON Schema of the step's `params` (after templating; defaults are filled, "5" becomes 5). */
  readonly params: JsonSchema;
  /** JSON Schema the value `call` returns must fit; a mismatch fails the step as invalid_body. */
  readonly output: JsonSchema;
  /** Default "sync". */
  readonly timing?: TimingMode;
  /** "always" (default): a step must name a service, whose base URL and auth `ctx.request` uses. "optional": absolute URLs without one. */
  readonly service?: 'always' | 'optional';
  /** JSONata mappings a step may pick with `mapping: "@name"`. */
  readonly mappings?: Readonly<Record<string, string>>;
  /**
   * Parameters whose value is the NAME of a secret (an environment variable such as
   * `SLACK_BOT_TOKEN`), never the secret itself; `ctx.secret(param)` reads it. A step must
   * write them as they are (no `{{templates}}`) and a named secret that is not set stops start-up.
   */
  readonly secrets?: readonly string[];
  /**
   * Parameters a step must write as they are, never `{{templates}}`: the addresses the secrets
   * go to (an API's base URL), so no variable a user can fill redirects a credential elsewhere.
   */
  readonly fixed?: readonly string[];
  call(ctx: StepContext): Promise<unknown> | unknown;
}

/** Types a step type for TypeScript authors; returns it unchanged. */
export function defineStepType(type: StepTypeModule): StepTypeModule {
  return type;
}

const NAME = /^[A-Za-z][\w-]{0,63}$/;
const FIELDS = new Set([
  'name',
  'level',
  'description',
  'params',
  'output',
  'timing',
  'service',
  'mappings',
  'secrets',
  'fixed',
  'call',
]);
// Only to check that a module's schemas compile; the registry compiles them again with its own options (formats included).
let schemaCheck: Ajv | undefined;

/**
 * Checks a module's default export and turns it into the registry's contract; throws an Error saying what to fix.
 * `schemasCompiled`: the product's own presets, whose schemas registry.test.ts compiles, skip compiling them
 * here (at every start-up, for a bot that may use none of them).
 */
export function toStepType(value: unknown, options: { readonly schemasCompiled?: boolean } = {}): CodeStepType {
  if (value === undefined)
    throw new Error('has no default export; export default { name, level, params, output, call }');
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('its default export must be an object { name, level, params, output, call }');
  const type = value as Record<string, unknown>;
  const unknown = Object.keys(type).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0)
    throw new Error(`its step type has unknown field(s) ${unknown.join(', ')} (allowed: ${[...FIELDS].join(', ')})`);
  if (typeof type.name !== 'string' || !NAME.test(type.name))
    throw new Error('"name" must be a name of letters, digits, "_" or "-", starting with a letter');
  if (!['protocol', 'service', 'action'].includes(type.level as string))
    throw new Error(`step type "${type.name}": "level" must be "protocol", "service" or "action"`);
  if (type.description !== undefined && typeof type.description !== 'string')
    throw new Error(`step type "${type.name}": "description" must be a string`);
  for (const field of ['params', 'output'] as const) {
    const schema = type[field];
    if (!schema || typeof schema !== 'object' || Array.isArray(schema))
      throw new Error(`step type "${type.name}": "${field}" must be a JSON Schema object`);
    try {
      if (!options.schemasCompiled)
        (schemaCheck ??= new Ajv({ strict: false, validateFormats: false })).compile(schema);
    } catch (error) {
      throw new Error(`step type "${type.name}": "${field}" is not a valid JSON Schema: ${(error as Error).message}`);
    }
  }
  if (type.timing !== undefined && type.timing !== 'sync' && type.timing !== 'async')
    throw new Error(`step type "${type.name}": "timing" must be "sync" or "async"`);
  if (type.service !== undefined && type.service !== 'always' && type.service !== 'optional')
    throw new Error(`step type "${type.name}": "service" must be "always" or "optional"`);
  if (
    type.mappings !== undefined &&
    (typeof type.mappings !== 'object' || !Object.values(type.mappings as object).every((m) => typeof m === 'string'))
  ) {
    throw new Error(`step type "${type.name}": "mappings" must map names to JSONata expressions`);
  }
  const declared = Object.keys(((type.params as { properties?: object }).properties ?? {}) as object);
  for (const field of ['secrets', 'fixed'] as const) {
    const names = type[field];
    if (names === undefined) continue;
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string'))
      throw new Error(`step type "${type.name}": "${field}" must be a list of parameter names`);
    const unknownNames = names.filter((n: string) => !declared.includes(n));
    if (unknownNames.length > 0)
      throw new Error(
        `step type "${type.name}": "${field}" names ${unknownNames.map((n: string) => `"${n}"`).join(', ')}, which "params" does not declare`,
      );
  }
  if (typeof type.call !== 'function')
    throw new Error(`step type "${type.name}": "call" must be a function (ctx) => output`);
  const call = type.call as CodeStepType['call'];
  return {
    kind: 'code',
    name: type.name,
    level: type.level as StepLevel,
    description: (type.description as string | undefined) ?? `${type.name} (a step type of this bot).`,
    paramsSchema: type.params as JsonSchema,
    outputSchema: type.output as JsonSchema,
    defaultTiming: (type.timing as TimingMode | undefined) ?? 'sync',
    needsService: (type.service as 'always' | 'optional' | undefined) ?? 'always',
    ...(type.mappings ? { mappings: type.mappings as Record<string, string> } : {}),
    secretParams: [...((type.secrets as string[] | undefined) ?? [])],
    fixedParams: [...((type.fixed as string[] | undefined) ?? [])],
    call: (ctx) => call.call(type, ctx),
  };
}
