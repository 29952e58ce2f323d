import { z } from 'zod';
import { botDefinitionSchema } from './schema.ts';

/** An integration step type as the editor schema shows it: its name, what it does, its parameters' JSON Schema. */
export interface EditorStepType {
  readonly name: string;
  readonly description: string;
  readonly params: object;
}

export interface JsonSchemaOptions {
  /** The integration step types whose `params` an editor checks (the built-in ones, and a server's own). */
  readonly stepTypes?: readonly EditorStepType[];
  /** Where the schema is served; `$schema` in a definition names it. */
  readonly id?: string;
  /**
   * The full JSON Schemas of `integrations.services` and `integrations.datasets`, from the
   * integration layer that owns them (this module sees only their outline): editors then check,
   * and the studio's forms show, every field.
   */
  readonly integrations?: { readonly services: object; readonly datasets: object };
}

/** The `$id` of the committed file; a server serves the schema under its own URL instead. */
export const SCHEMA_PATH = '/bot-definition.schema.json';
const PLACEHOLDER_ID = `https://chatbot.invalid${SCHEMA_PATH}`;

type Json = Record<string, unknown>;

/**
 * The definition schema as JSON Schema (draft 2020-12) text, for editors.
 * `io: 'input'`: fields with defaults are optional, as a person writes them. Every property carries
 * the description given in the zod schema. A step is chosen by `type` with if/then, so an editor
 * names a misspelt type instead of every branch's complaint, and an integration step's `params` is
 * checked against its step type's schema (a `{{variable}}` is accepted wherever a value goes).
 * Cross-reference rules (targets exist, ids unique) are checked by `chatbot check` only.
 */
export function definitionJsonSchema(options: JsonSchemaOptions = {}): string {
  const schema = z.toJSONSchema(botDefinitionSchema, { io: 'input', unrepresentable: 'any' }) as Json;
  const steps = ((((schema.properties as Json).dialogs as Json).items as Json).properties as Json).steps as Json;
  steps.items = discriminated(steps.items as Json, options.stepTypes ?? []);
  if (options.integrations) {
    const parts = ((schema.properties as Json).integrations as Json).properties as Json;
    parts.services = withoutDefault(options.integrations.services as Json);
    parts.datasets = withoutDefault(options.integrations.datasets as Json);
  }
  return `${JSON.stringify(
    {
      ...schema,
      $id: options.id ?? PLACEHOLDER_ID,
      title: 'Bot definition',
      description:
        'One bot: settings, user-data fields, dialogs of steps, intents, FAQ pairs, integrations. See docs/bot-definition.md.',
    },
    null,
    2,
  )}\n`;
}

/** Both parts are optional in a definition: an empty default would only be noise for an editor. */
function withoutDefault(schema: Json): Json {
  const { default: _default, ...rest } = schema;
  return rest;
}

/** The steps' `oneOf` as an if/then per `type`, with per-type `params` for integration steps. */
function discriminated(union: Json, stepTypes: readonly EditorStepType[]): Json {
  const branches = (union.oneOf ?? union.anyOf) as Json[];
  const kinds = branches.map((branch) => ((branch.properties as Json).type as Json).const as string);
  return {
    type: 'object',
    required: ['id', 'type'],
    properties: {
      type: { enum: kinds, description: `The step kind: ${kinds.join(', ')}.` },
    },
    allOf: branches.map((branch, i) => ({
      if: { properties: { type: { const: kinds[i] } }, required: ['type'] },
      then: kinds[i] === 'integration' ? withParams(branch, stepTypes) : branch,
    })),
  };
}

function withParams(branch: Json, stepTypes: readonly EditorStepType[]): Json {
  if (stepTypes.length === 0) return branch;
  const properties = branch.properties as Json;
  const integration = properties.integration as Json;
  properties.integration = {
    ...integration,
    description:
      `${String(integration.description ?? '')} Known here: ${stepTypes.map((t) => t.name).join(', ')}.`.trim(),
    examples: stepTypes.map((t) => t.name),
  };
  return {
    ...branch,
    allOf: stepTypes.map((type) => ({
      if: { properties: { integration: { const: type.name } }, required: ['integration'] },
      then: {
        properties: {
          params: {
            ...acceptTemplates(structuredClone(type.params) as Json),
            description: `${type.name}: ${type.description}`,
          },
        },
      },
    })),
  };
}

const TEMPLATE = {
  type: 'string',
  pattern: '\\{\\{\\s*[A-Za-z_$][\\w$]*(\\.[\\w$]+)*\\s*\\}\\}',
  description: 'A {{variable}} template, filled when the step runs.',
};

/** Every value inside may also be a `{{variable}}` template: parameters are checked again once filled. */
function acceptTemplates(schema: Json, depth = 0): Json {
  if (depth > 32) return schema;
  if (schema.properties) {
    schema.properties = Object.fromEntries(
      Object.entries(schema.properties as Json).map(([key, inner]) => [
        key,
        orTemplate(acceptTemplates(inner as Json, depth + 1)),
      ]),
    );
  }
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items))
    schema.items = orTemplate(acceptTemplates(schema.items as Json, depth + 1));
  return schema;
}

function orTemplate(schema: Json): Json {
  const { description, default: fallback, ...rest } = schema;
  return {
    anyOf: [rest, TEMPLATE],
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
  };
}
