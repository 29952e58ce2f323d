import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { Document, visit } from 'yaml';
import { botDefinitionSchema } from './schema.ts';

/**
 * One text per definition, whoever wrote it and in whatever key order: keys follow the schema
 * (`$schema`, `id`, `type`, `kind` first, then the order the schema declares), keys the schema
 * does not name (a step type's params, service names) come after in code-point order. Nothing
 * else changes: no default is added, no value rewritten, so a file exported and imported again
 * is the same version (same hash) and `git diff` shows only what someone changed.
 *
 * Callers bound the value first (depth 32, see definition-text.ts): the walk recurses.
 */

type Schema = z.ZodType;
type Def = { type: string; [key: string]: unknown };

const LEADING = ['$schema', 'id', 'type', 'kind'];

const defOf = (schema: Schema): Def => (schema as unknown as { def: Def }).def;
/** A schema's own key only: a "constructor" or "__proto__" key in the data must not reach Object.prototype. */
const own = (record: Record<string, Schema> | undefined, key: string): Schema | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

/** The schema under optional/default/nullable/lazy/pipe wrappers. */
function unwrap(schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let i = 0; current && i < 20; i++) {
    const def = defOf(current);
    if (def.innerType) current = def.innerType as Schema;
    else if (def.type === 'lazy') current = (def.getter as () => Schema)();
    else if (def.type === 'pipe') current = def.in as Schema;
    else return current;
  }
  return current;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The option of a union that describes `value`: by its discriminator when there is one, else the object option whose keys fit best. */
function optionFor(schema: Schema, value: unknown): Schema | undefined {
  const def = defOf(schema);
  const options = (def.options as Schema[]).map((option) => unwrap(option)!);
  if (!isObject(value)) return options.find((option) => defOf(option).type !== 'object');
  const objects = options.filter((option) => defOf(option).type === 'object');
  const discriminator = def.discriminator as string | undefined;
  if (discriminator !== undefined) {
    const found = objects.find((option) => {
      const literal = unwrap(own((option as unknown as { shape: Record<string, Schema> }).shape, discriminator));
      return literal !== undefined && (defOf(literal).values as unknown[] | undefined)?.includes(value[discriminator]);
    });
    if (found) return found;
  }
  const keys = Object.keys(value);
  return (
    objects.find((option) => keys.every((key) => Object.hasOwn((option as unknown as { shape: object }).shape, key))) ??
    objects[0]
  );
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not assignment: a "__proto__" key in the data stays a key.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function order(value: unknown, schema: Schema | undefined): unknown {
  let at = unwrap(schema);
  if (at && defOf(at).type === 'union') at = optionFor(at, value);
  if (Array.isArray(value)) {
    const element = at && defOf(at).type === 'array' ? (defOf(at).element as Schema) : undefined;
    return value.map((item) => order(item, element));
  }
  if (!isObject(value)) return value;
  const def = at ? defOf(at) : undefined;
  const shape = def?.type === 'object' ? (at as unknown as { shape: Record<string, Schema> }).shape : undefined;
  const valueSchema = def?.type === 'record' ? (def.valueType as Schema) : undefined;
  const present = Object.keys(value);
  const known = shape ? Object.keys(shape) : [];
  const keys = [
    ...LEADING.filter((key) => present.includes(key)),
    ...known.filter((key) => !LEADING.includes(key) && present.includes(key)),
    ...present.filter((key) => !LEADING.includes(key) && !known.includes(key)).sort(),
  ];
  const out: Record<string, unknown> = {};
  for (const key of keys) define(out, key, order(value[key], own(shape, key) ?? valueSchema));
  return out;
}

/** The definition with its keys in canonical order (see above); any JSON value is accepted, valid or not. */
export function canonicalDefinition(value: unknown): unknown {
  return order(value, botDefinitionSchema);
}

/** The canonical JSON text the versions store keeps (compact). */
export function canonicalText(value: unknown): string {
  return JSON.stringify(canonicalDefinition(value));
}

/** sha256 of the canonical text: equal for equal content, whatever the key order or format it came in. */
export function definitionHash(value: unknown): string {
  return hashOfCanonicalText(canonicalText(value));
}

export function hashOfCanonicalText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export type ExportFormat = 'json' | 'yaml';

/**
 * The file people keep in git: two-space JSON, or YAML with no folded lines and no anchors,
 * each ending in a newline. Both parse back to exactly the same value.
 */
export function exportDefinition(value: unknown, format: ExportFormat): string {
  const canonical = canonicalDefinition(value);
  if (format === 'json') return `${JSON.stringify(canonical, null, 2)}\n`;
  const doc = new Document(canonical, { aliasDuplicateObjects: false, version: '1.2' });
  // A lone surrogate cannot be written as UTF-8: JSON escapes it; in YAML it goes in double quotes as \uXXXX.
  let lone = false;
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && LONE_SURROGATE.test(node.value)) {
        node.type = 'QUOTE_DOUBLE';
        lone = true;
      }
    },
  });
  const text = doc.toString({ lineWidth: 0, minContentWidth: 0 });
  return lone ? text.replace(LONE_SURROGATES, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
