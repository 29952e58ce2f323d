import { isoTimeFormatter } from './iso-time.ts';

/** Text that JSON.stringify would write differently from itself in quotes (as in record-json.ts). */
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A field name a JavaScript object would not keep in insertion order, or would not keep at all. */
const REORDERED = /^(?:0|[1-9]\d*)$/;

/**
 * Writes an export record ({"userId":…,"timestamp":…, then the data's fields}) from the text the
 * store keeps its data in, so a million records are not each written out again from parsed data:
 * at that size, writing JSON was as costly as the store's own read. It applies when the parsed
 * data's keys are the first of the record's data fields, in their order (the rest missing, so
 * null): then the record is the data's text with userId and timestamp before it and the missing
 * fields after it, which is byte for byte the text of the general writer, since the store's text
 * is JSON.stringify of that same data (LogEntry.dataJson). Otherwise (another key order, extra
 * keys, a field listed twice, a field named like an array index) it returns undefined and the
 * caller writes the record from its values.
 */
export function storedTextRecord(
  fields: readonly string[],
):
  | ((userId: string, timestamp: number, data: Readonly<Record<string, unknown>>, text: string) => string | undefined)
  | null {
  const rest = fields.slice(2);
  const usable =
    fields[0] === 'userId' &&
    fields[1] === 'timestamp' &&
    new Set(fields).size === fields.length &&
    !fields.some((field) => REORDERED.test(field) || field === '__proto__');
  if (!usable) return null;
  // tails[k]: the fields from rest[k] on, each missing, so null.
  const tails = rest.map((_, k) =>
    rest
      .slice(k)
      .map((field) => `,${JSON.stringify(field)}:null`)
      .join(''),
  );
  tails.push('');
  const iso = isoTimeFormatter();
  return (userId, timestamp, data, text) => {
    if (typeof userId !== 'string') return undefined;
    const keys = Object.keys(data);
    if (keys.length > rest.length) return undefined;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      // undefined: JSON.stringify leaves the key out, the record writes null.
      if (key !== rest[k] || data[key] === undefined) return undefined;
    }
    // One expression, so the record is as few joined pieces as can be (see ChunkWriter in stream-export.ts).
    const head =
      (NEEDS_ESCAPING.test(userId)
        ? `{"userId":${JSON.stringify(userId)},"timestamp":"`
        : `{"userId":"${userId}","timestamp":"`) + iso(timestamp);
    if (keys.length === 0) return `${head}"${tails[0]}}`;
    if (keys.length === rest.length) return `${head}",${text.slice(1)}`;
    return `${head}",${text.slice(1, -1)}${tails[keys.length]}}`;
  };
}
