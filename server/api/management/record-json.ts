/** Text that JSON.stringify would write differently from itself in quotes: quotes, backslashes, control characters, surrogates. */
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A field name a JavaScript object would not keep in insertion order (an array index), or would not keep at all. */
const REORDERED = /^(?:0|[1-9]\d*)$/;

/** One value as JSON.stringify writes it inside an object; undefined for what it leaves out (undefined, functions, symbols). */
function valueJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return NEEDS_ESCAPING.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? 'null' : JSON.stringify(value);
    case 'bigint':
      return JSON.stringify(value); // throws, as it would for the record
    default:
      return undefined;
  }
}

/**
 * Writes a record given as values in `fields` order as the JSON text JSON.stringify gives for
 * the object that assigns those fields in order: each key once, where it first appears, with
 * the value given there (export-records.ts gives every listing of a key the same value).
 * Keys are escaped once here rather than per record; values go through JSON.stringify only
 * where plain quoting would differ, which at a million records is much of an export's cost.
 */
export function recordJson(fields: readonly string[]): (values: readonly unknown[]) => string {
  if (fields.some((field) => REORDERED.test(field) || field === '__proto__')) {
    // Object key order would not be insertion order: build the object, as the records always were.
    return (values) => {
      const record: Record<string, unknown> = {};
      fields.forEach((field, i) => (record[field] = values[i]));
      return JSON.stringify(record);
    };
  }
  const keys = fields.map((field, i) => (fields.indexOf(field) === i ? `${JSON.stringify(field)}:` : null));
  return (values) => {
    let text = '';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === null) continue;
      const value = valueJson(values[i]);
      if (value === undefined) continue;
      text += (text === '' ? '{' : ',') + key + value;
    }
    return text === '' ? '{}' : `${text}}`;
  };
}
