import type { ErrorObject, ValidateFunction } from 'ajv';
// Draft 2019-09: the step types' schemas use dependentRequired, which draft-07 Ajv (with strict off) skips silently.
import { Ajv2019 as Ajv } from 'ajv/dist/2019.js';
import formats from 'ajv-formats';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };
import { createUser } from './create-user.ts';
import { listUserEvents } from './list-user-events.ts';
import { queryDataset } from './query-dataset.ts';
import { sendTrackingEvent } from './send-tracking-event.ts';
import { httpStepType } from './protocol-http.ts';
import { serviceStepType } from './service-call.ts';
import type { JsonSchema, StepType } from '../step-contract/step-type.ts';
import { closest } from '../../definition/problem.ts';
import { PRESET_STEP_TYPES } from '../presets/index.ts';

/** Every step type this server knows, by name: the built-in ones, then the presets (server/integrations/presets). */
export const BUILT_IN_STEP_TYPES: readonly StepType[] = [
  httpStepType,
  serviceStepType,
  listUserEvents,
  createUser,
  sendTrackingEvent,
  queryDataset,
  ...PRESET_STEP_TYPES,
];

export interface CompiledStepType {
  readonly type: StepType;
  /** Validates parameters after templating, filling defaults and coercing to the schema's types ("5" → 5). */
  readonly params: ValidateFunction;
  /** Validates the output exactly as it came (no coercion): a mismatch is an invalid_body error. */
  readonly output: ValidateFunction;
}

/**
 * The registry of step types, each one's schemas compiled once with ajv, when it is first used:
 * compiling every built-in type's schemas (and ajv's draft 2019-09 meta-schema, twice) was about
 * a quarter of a start-up's time before listening (a profile of bench/start-cpu.ts), for a bot
 * that may use none of them. A bot's own
 * step types' schemas are checked when their module loads (define-step-type.ts), and the
 * built-in ones by registry.test.ts, so deferring the compile hides no broken schema.
 */
export class StepTypeRegistry {
  private readonly types = new Map<string, CompiledStepType>();
  // verbose: an error carries the schema it broke, so an unknown parameter can be matched to the closest known one.
  private inputAjvMade: Ajv | undefined;
  private outputAjvMade: Ajv | undefined;

  constructor(types: readonly StepType[] = BUILT_IN_STEP_TYPES) {
    for (const type of types) this.add(type);
  }

  private get inputAjv(): Ajv {
    return (this.inputAjvMade ??= withFormats(
      new Ajv({ allErrors: true, useDefaults: true, coerceTypes: 'array', strict: false, verbose: true }),
    ));
  }

  private get outputAjv(): Ajv {
    return (this.outputAjvMade ??= withFormats(new Ajv({ allErrors: true, strict: false })));
  }

  add(type: StepType): void {
    if (this.types.has(type.name)) throw new Error(`step type "${type.name}" is registered twice`);
    let params: ValidateFunction | undefined;
    let output: ValidateFunction | undefined;
    const compileParams = () => this.inputAjv.compile(type.paramsSchema);
    const compileOutput = () => this.outputAjv.compile(type.outputSchema);
    this.types.set(type.name, {
      type,
      get params() {
        return (params ??= compileParams());
      },
      get output() {
        return (output ??= compileOutput());
      },
    });
  }

  get(name: string): CompiledStepType | undefined {
    return this.types.get(name);
  }

  names(): string[] {
    return [...this.types.keys()];
  }

  /** The schemas, e.g. for the definition's JSON Schema export and editor help. */
  describe(): {
    name: string;
    level: string;
    description: string;
    params: JsonSchema;
    output: JsonSchema;
    mappings: string[];
  }[] {
    return [...this.types.values()].map(({ type }) => ({
      name: type.name,
      level: type.level,
      description: type.description,
      params: type.paramsSchema,
      output: type.outputSchema,
      mappings: Object.keys(type.mappings ?? {}),
    }));
  }
}

const compiledSets: { types: readonly StepType[]; registry: StepTypeRegistry }[] = [];

/**
 * A registry of these step types, compiled once and kept (the last few sets, by the identity of
 * their objects: a module's step type is the same object on every import). Used by `chatbot check`,
 * start-up's checks, the studio's check endpoint (which runs on every edit), and the bot's runtime
 * after start-up's check: its validators keep no state between calls but `errors`, which every
 * caller reads right after the call.
 */
export function registryFor(types: readonly StepType[]): StepTypeRegistry {
  const same = compiledSets.find(
    (entry) => entry.types.length === types.length && entry.types.every((type, i) => type === types[i]),
  );
  if (same) return same.registry;
  const registry = new StepTypeRegistry(types);
  compiledSets.unshift({ types: [...types], registry });
  compiledSets.length = Math.min(compiledSets.length, 4);
  return registry;
}

function withFormats(ajv: Ajv): Ajv {
  formats.default(ajv);
  // A bot's own step type may declare "$schema": draft-07; its schema is read the same way.
  ajv.addMetaSchema(draft07);
  return ajv;
}

/** ajv errors as one readable line naming the property: `unknown property "extra"; /email must match format "email"`. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const at = e.instancePath ? `${e.instancePath} ` : '';
      const params = e.params as Record<string, unknown>;
      if (e.keyword === 'additionalProperties') {
        const name = String(params.additionalProperty);
        const near = closest(
          name,
          Object.keys(((e.parentSchema as { properties?: object } | undefined)?.properties ?? {}) as object),
        );
        return `${at}unknown property "${name}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`.trim();
      }
      if (e.keyword === 'required') return `${at}missing property "${String(params.missingProperty)}"`.trim();
      if (e.keyword === 'dependentRequired')
        return `${at}"${String(params.property)}" needs "${String(params.missingProperty)}" as well`.trim();
      if (e.keyword === 'enum')
        return `${at || '(the value) '}must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`.trim();
      return `${e.instancePath || '(the value)'} ${e.message ?? 'is invalid'}`.trim();
    })
    .join('; ');
}
