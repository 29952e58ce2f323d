import { NOT_TEMPLATE_KEYS } from '../../../shared/bot-names.ts';
import { isObject, type Loose } from './types.ts';

/**
 * Forms from schemas: the editor JSON Schema the server serves (the zod schemas of the step
 * kinds, with descriptions and defaults) and the JSON Schema of each integration step type,
 * including a customer's own `defineStepType` modules. A field's widget follows from its
 * schema's shape, never from a list of step kinds, so a new step type gets a form for free.
 */

export type Widget =
  | 'text'
  | 'template'
  | 'number'
  | 'boolean'
  | 'choice'
  /** A step of the same dialog or another dialog (and step): picked from lists. */
  | 'target'
  /** A step id of the same dialog (`next`). */
  | 'stepOfDialog'
  | 'dialog'
  /** A goto's `step`, in the dialog its sibling `dialog` names. */
  | 'stepOfSibling'
  /** `{ userData }` or `{ variable }`. */
  | 'saveTo'
  /** A variable name a step sets (output, a set action's variable). */
  | 'variableName'
  /** A user-data field. */
  | 'userDataField'
  /** A condition step's branches: the condition builder. */
  | 'branches'
  /** An integration's `onError`: fatal, a dialog, or a flag. */
  | 'integrationError'
  | 'stepType'
  | 'service'
  /** A secret's name (`tokenEnv`, `passwordEnv`…): picked from the studio's secrets, its value never shown. */
  | 'secret'
  | 'stringList'
  | 'rows'
  /** An object; with `variants`, of one of several kinds (a service's sign-in: none, bearer, basic…). */
  | 'group'
  /** A map of named objects (`integrations.services`): entries added, renamed, removed, each a form. */
  | 'record'
  | 'keyValue'
  | 'json';

export interface FieldSpec {
  readonly key: string;
  /** The label, where the form knows a better one than its key's (an integration's parameter). */
  readonly label?: string;
  readonly widget: Widget;
  readonly description?: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly integer?: boolean;
  readonly multiline?: boolean;
  /** For rows and groups: the fields of one item. */
  readonly fields?: readonly FieldSpec[];
  /** For rows whose items come in kinds (buttons: postback, url, dialog): the field naming the kind, and each kind's fields. */
  readonly variants?: Variants;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** For keyValue and record: the values' own field (for a record, a group). */
  readonly values?: FieldSpec;
  /** For record: the pattern an entry's name must match, from the schema's `propertyNames`. */
  readonly keyPattern?: string;
}

export interface Variants {
  readonly key: string;
  readonly options: readonly {
    readonly value: string;
    readonly description?: string;
    readonly fields: readonly FieldSpec[];
  }[];
}

export interface StepKind {
  readonly type: string;
  readonly description: string;
}

type Schema = Loose;

/** The step kinds the editor schema knows, in its order, with their descriptions. */
export function stepKinds(editorSchema: Schema): StepKind[] {
  return stepBranches(editorSchema).map(({ type, schema }) => ({
    type,
    description: text(resolve(editorSchema, (schema.properties as Schema | undefined)?.type)?.description) ?? '',
  }));
}

/** The object schema of one step kind. */
export function stepKindSchema(editorSchema: Schema, type: string): Schema | undefined {
  return stepBranches(editorSchema).find((branch) => branch.type === type)?.schema;
}

/** The fields of a step kind's form, in the schema's order; `id` and `type` are the card's own. */
export function stepFields(editorSchema: Schema, type: string): FieldSpec[] {
  const schema = stepKindSchema(editorSchema, type);
  if (!schema) return [];
  const fields = objectFields(editorSchema, schema, 0).filter((field) => field.key !== 'id' && field.key !== 'type');
  // The step's way out reads last, after what it does.
  return [...fields.filter((f) => f.key !== 'next'), ...fields.filter((f) => f.key === 'next')];
}

/** The top-level sections of the definition other than its dialogs (settings, user-data fields, intents, FAQ, page events), from the editor schema. */
export function botFields(editorSchema: Schema): FieldSpec[] {
  return objectFields(editorSchema, editorSchema, 0)
    .filter((field) =>
      ['settings', 'userDataFields', 'intents', 'faq', 'pageEvents', 'integrations'].includes(field.key),
    )
    .map((field) => (field.key === 'integrations' ? untemplated(field) : field));
}

/** Services and datasets are read when the bot starts, before any conversation: their text is plain, no {{variables}}. */
function untemplated(spec: FieldSpec): FieldSpec {
  return {
    ...spec,
    ...(spec.widget === 'template' ? { widget: 'text' as const } : {}),
    ...(spec.fields ? { fields: spec.fields.map(untemplated) } : {}),
    ...(spec.values ? { values: untemplated(spec.values) } : {}),
    ...(spec.variants
      ? {
          variants: {
            key: spec.variants.key,
            options: spec.variants.options.map((o) => ({ ...o, fields: o.fields.map(untemplated) })),
          },
        }
      : {}),
  };
}

/** The fields of an integration step type's parameters (its own JSON Schema). */
export function paramsFields(paramsSchema: Schema): FieldSpec[] {
  return objectFields(paramsSchema, paramsSchema, 0, true);
}

/** The fields of any object schema under `root` (for $ref). */
export function objectFields(root: Schema, schema: Schema, depth: number, inParams = false): FieldSpec[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([key, node]) =>
    fieldSpec(root, key, resolve(root, node) ?? {}, required.has(key), depth, inParams),
  );
}

/** What one property is, and how to edit it. */
export function fieldSpec(
  root: Schema,
  key: string,
  node: Schema,
  required: boolean,
  depth = 0,
  inParams = false,
): FieldSpec {
  const common = {
    key,
    required,
    ...(text(node.description) === undefined ? {} : { description: text(node.description)! }),
    ...(node.default === undefined ? {} : { default: node.default }),
  };
  const widget = (w: Widget, extra: Partial<FieldSpec> = {}): FieldSpec => ({ ...common, ...extra, widget: w });
  const alternatives = alternativesOf(root, node);

  if (!inParams) {
    if (key === 'branches') return widget('branches');
    if (
      alternatives.some((alt) => isObject(alt.properties) && 'dialog' in alt.properties) &&
      alternatives.some((alt) => alt.type === 'string')
    )
      return widget('target');
    if (
      alternatives.length === 2 &&
      alternatives.every((alt) => isObject(alt.properties)) &&
      alternatives.some((alt) => 'userData' in (alt.properties as Schema))
    )
      return widget('saveTo');
    if (key === 'next') return widget('stepOfDialog');
    if ((key === 'dialog' || key.endsWith('Dialog')) && node.type === 'string') return widget('dialog');
    if (key === 'step' && node.type === 'string') return widget('stepOfSibling');
    if (key === 'onError' && typeof node.pattern === 'string' && node.pattern.includes('flag:'))
      return widget('integrationError');
    if (key === 'integration') return widget('stepType');
    if (key === 'service') return widget('service');
    if ((key === 'variable' || key === 'output') && node.type === 'string') return widget('variableName');
    if (key === 'userData' && node.type === 'string') return widget('userDataField');
    if (key === 'fields' && node.type === 'array') return widget('stringList', { fields: [] });
  }
  // A secret's name, picked from the studio's secrets: the definition's `…Env` keys (the server's secrets list's rule), a step type's `…Secret` parameters (`urlSecret`).
  if (node.type === 'string' && (inParams ? /\wSecret$/ : /Env$/).test(key)) return widget('secret');
  const kinds = depth < 6 ? variantsOf(root, alternatives, depth, inParams) : undefined;
  if (kinds) return widget('group', { fields: [], variants: kinds });
  if (Array.isArray(node.enum)) return widget('choice', { enum: node.enum });
  if (node.const !== undefined) return widget('choice', { enum: [node.const] });
  const type = Array.isArray(node.type) ? undefined : node.type;
  if (type === 'boolean') return widget('boolean');
  if (type === 'number' || type === 'integer') {
    return widget('number', {
      integer: type === 'integer',
      ...(typeof node.minimum === 'number' ? { minimum: node.minimum } : {}),
      ...(typeof node.maximum === 'number' ? { maximum: node.maximum } : {}),
    });
  }
  if (type === 'string') {
    const templated = inParams || !NOT_TEMPLATE_KEYS.has(key);
    const maxLength = typeof node.maxLength === 'number' ? node.maxLength : undefined;
    return widget(templated ? 'template' : 'text', {
      ...(maxLength === undefined ? {} : { maxLength }),
      multiline: maxLength === undefined ? false : maxLength > 1000,
    });
  }
  if (type === 'array' && depth < 6) {
    const items = resolve(root, node.items) ?? {};
    const bounds = {
      ...(typeof node.minItems === 'number' ? { minItems: node.minItems } : {}),
      ...(typeof node.maxItems === 'number' ? { maxItems: node.maxItems } : {}),
    };
    const itemAlternatives = (
      Array.isArray(items.oneOf) ? items.oneOf : Array.isArray(items.anyOf) ? items.anyOf : []
    ).map((n) => resolve(root, n) ?? {});
    const itemKinds = variantsOf(root, itemAlternatives, depth, inParams);
    if (itemKinds) return widget('rows', { ...bounds, fields: [], variants: itemKinds });
    if (items.type === 'object' && isObject(items.properties))
      return widget('rows', { ...bounds, fields: objectFields(root, items, depth + 1, inParams) });
    if (items.type === 'string') return widget('stringList', bounds);
    return widget('json');
  }
  if (type === 'object' && depth < 6) {
    if (isObject(node.properties) && Object.keys(node.properties).length > 0)
      return widget('group', { fields: objectFields(root, node, depth + 1, inParams) });
    const values = resolve(root, node.additionalProperties);
    if (
      isObject(values) &&
      (hasProperties(values) || variantsOf(root, alternativesOf(root, values), depth, inParams))
    ) {
      const pattern = (resolve(root, node.propertyNames) ?? {}).pattern;
      return widget('record', {
        values: fieldSpec(root, key, values, true, depth + 1, inParams),
        ...(typeof pattern === 'string' ? { keyPattern: pattern } : {}),
      });
    }
    if (isObject(values) && (values.type === 'string' || Array.isArray(values.type)))
      return widget('keyValue', { values: fieldSpec(root, 'value', values, true, depth + 1, true) });
    return widget('keyValue', { values: { key: 'value', widget: 'json', required: true } });
  }
  return widget('json');
}

function stepBranches(editorSchema: Schema): { type: string; schema: Schema }[] {
  const steps = (
    (
      (((editorSchema.properties as Schema | undefined)?.dialogs as Schema | undefined)?.items as Schema | undefined)
        ?.properties as Schema | undefined
    )?.steps as Schema | undefined
  )?.items as Schema | undefined;
  const branches = Array.isArray(steps?.allOf) ? (steps.allOf as Schema[]) : [];
  return branches.flatMap((branch) => {
    const type = (((branch.if as Schema | undefined)?.properties as Schema | undefined)?.type as Schema | undefined)
      ?.const;
    return typeof type === 'string' && isObject(branch.then) ? [{ type, schema: branch.then }] : [];
  });
}

/** The kinds an object comes in (alternatives that each pin one property with a `const`), each with its own fields. */
function variantsOf(root: Schema, alternatives: Schema[], depth: number, inParams: boolean): Variants | undefined {
  const discriminator = variantKey(alternatives);
  if (discriminator === undefined) return undefined;
  const options = alternatives.map((alt) => {
    const tag = resolve(root, (alt.properties as Schema)[discriminator]) ?? {};
    return {
      value: String(tag.const),
      ...(text(tag.description) === undefined ? {} : { description: text(tag.description)! }),
      fields: objectFields(root, alt, depth + 1, inParams).filter((f) => f.key !== discriminator),
    };
  });
  return { key: discriminator, options };
}

function alternativesOf(root: Schema, node: Schema): Schema[] {
  return (Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : []).map(
    (n) => resolve(root, n) ?? {},
  );
}

const hasProperties = (node: Schema): boolean => isObject(node.properties) && Object.keys(node.properties).length > 0;

/** The property every alternative pins with a `const` (buttons: `kind`). */
function variantKey(alternatives: Schema[]): string | undefined {
  if (alternatives.length < 2) return undefined;
  const first = alternatives[0]!.properties;
  if (!isObject(first)) return undefined;
  return Object.keys(first).find((key) =>
    alternatives.every(
      (alt) =>
        isObject(alt.properties) &&
        isObject(alt.properties[key]) &&
        (alt.properties[key] as Schema).const !== undefined,
    ),
  );
}

/** Follows a local `$ref` (`#/$defs/x`); bounded, so a cycle of refs ends. */
export function resolve(root: Schema, node: unknown, depth = 0): Schema | undefined {
  if (!isObject(node)) return undefined;
  if (typeof node.$ref !== 'string' || depth > 8) return node;
  const parts = node.$ref.replace(/^#\//, '').split('/');
  let found: unknown = root;
  for (const part of parts) found = isObject(found) ? found[part] : undefined;
  const { $ref: _ref, ...rest } = node;
  const target = resolve(root, found, depth + 1);
  return target ? { ...target, ...rest } : rest;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
