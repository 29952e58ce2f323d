/**
 * Checks values against a schema of a vendor's published OpenAPI document (a cut kept beside the
 * stand-ins), with Ajv, and words each failure the way a person reading the vendor's reference would.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type JsonObject = { [key: string]: unknown };

export interface ReferenceCheck {
  readonly ok: boolean;
  /** One line per failure: where in the value, and what the reference asks for. */
  readonly problems: readonly string[];
}

export interface ReferenceValidatorOptions {
  /** Form posts carry every value as text: let "true" and "3" count as a boolean and an integer. */
  readonly coerceFormValues?: boolean;
  /** Formats the document names but JSON Schema does not define (Twilio's `phone-number`). */
  readonly formats?: Readonly<Record<string, RegExp>>;
}

/**
 * Meta's document writes each message kind as `allOf: [BaseMessageProperties, {additionalProperties:
 * false, …}]`. Read literally, the second branch refuses the first branch's fields (`to`,
 * `messaging_product`), so even the document's own examples would fail. What the authors mean is "no
 * field beyond the union", which JSON Schema 2020-12 says with `unevaluatedProperties: false` on the
 * allOf's owner: rewrite it so, leaving every other constraint as published.
 */
function closeAllOfUnions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closeAllOfUnions);
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, closeAllOfUnions(inner)]),
  );
  if (
    Array.isArray(copy.allOf) &&
    copy.allOf.some((branch) => (branch as JsonObject)?.additionalProperties === false)
  ) {
    copy.allOf = copy.allOf.map((branch) => {
      const { additionalProperties: _closed, ...open } = branch as JsonObject;
      return _closed === false ? open : branch;
    });
    copy.unevaluatedProperties = false;
  }
  return copy;
}

/** Twilio marks formats it does not enforce itself with `x-twilio: { ignoreFormat: true }`. */
function dropIgnoredFormats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropIgnoredFormats);
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, dropIgnoredFormats(inner)]),
  );
  if ((copy['x-twilio'] as JsonObject | undefined)?.ignoreFormat === true) delete copy.format;
  return copy;
}

/** OpenAPI 3.0's `nullable: true` is JSON Schema's `type: [T, "null"]`. */
function widenNullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(widenNullable);
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, widenNullable(inner)]));
  if (copy.nullable === true && typeof copy.type === 'string') copy.type = [copy.type, 'null'];
  if (copy.nullable === true && Array.isArray(copy.enum)) copy.enum = [...copy.enum, null];
  return copy;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the value' : error.instancePath;
  const extra =
    error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties'
      ? ` (${String((error.params as JsonObject).additionalProperty ?? (error.params as JsonObject).unevaluatedProperty)})`
      : error.keyword === 'enum'
        ? ` (${JSON.stringify((error.params as JsonObject).allowedValues)})`
        : '';
  return `${where} ${error.message ?? 'does not match the reference'}${extra}`;
}

/** A validator over one reference document; `check(pointer, value)` validates against `#<pointer>`. */
export class ReferenceValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly id: string;

  constructor(document: JsonObject, options: ReferenceValidatorOptions = {}) {
    this.id = `reference:${String((document.source as JsonObject | undefined)?.repository ?? 'document')}`;
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      coerceTypes: options.coerceFormValues ? 'array' : false,
      validateSchema: false,
    });
    addFormats.default(this.ajv);
    for (const [name, pattern] of Object.entries(options.formats ?? {})) this.ajv.addFormat(name, pattern);
    const prepared = widenNullable(dropIgnoredFormats(closeAllOfUnions(document))) as JsonObject;
    this.ajv.addSchema({ ...prepared, $id: this.id });
  }

  /** Validates (and, for form values, coerces in place) `value` against the schema at `pointer`. */
  check(pointer: string, value: unknown): ReferenceCheck {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      const found = this.ajv.getSchema(`${this.id}#${pointer}`);
      if (!found) throw new Error(`The reference has no schema at ${pointer}.`);
      validate = found;
      this.compiled.set(pointer, validate);
    }
    const ok = validate(value) === true;
    return { ok, problems: ok ? [] : (validate.errors ?? []).map(describe) };
  }
}

/** A JSON pointer segment: `/` and `~` escaped as RFC 6901 asks. */
export function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
