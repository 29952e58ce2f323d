import { describe, expect, it } from 'vitest';
import { recordJson } from './record-json.ts';

const asObject = (fields: readonly string[], values: readonly unknown[]) => {
  const record: Record<string, unknown> = {};
  fields.forEach((field, i) => (record[field] = values[i]));
  return JSON.stringify(record);
};

describe('recordJson', () => {
  it('when values of every JSON kind are written, then the text is byte for byte what JSON.stringify gives for the record object', () => {
    const fields = ['userId', 'timestamp', 'text', 'count', 'flag', 'nested', 'missing', 'list'];
    const samples: unknown[][] = [
      ['u1', '2026-01-01T00:00:00.000Z', 'plain', 42, true, { a: [1, 'b', null], 'k"ey': 'v\\' }, null, []],
      ['quote " back \\ slash', 't', 'line\nbreak\ttab\u0000nul\u001f', -0, false, {}, null, [{ x: 1.5e300 }]],
      ['emoji 😀 and lone \ud800 surrogate', 't', '</script>\u2028\u2029 é ü', 1e21, false, null, null, ['\udc00']],
      ['u', 't', '', NaN, true, { toJSON: () => 'custom' }, Infinity, -1.25],
      ['u', 't', new Date(0), 0.1 + 0.2, true, [undefined, () => 1], undefined, Symbol('s')],
    ];
    const write = recordJson(fields);
    for (const values of samples) expect(write(values)).toBe(asObject(fields, values));
  });

  it('when a field is listed twice, then its key is written once, where it first appears', () => {
    const fields = ['userId', 'timestamp', 'email', 'userId', 'email'];
    const values = ['data-id', 't', 'a@b.c', 'data-id', 'a@b.c'];
    expect(recordJson(fields)(values)).toBe(asObject(fields, values));
    expect(recordJson(fields)(values)).toBe('{"userId":"data-id","timestamp":"t","email":"a@b.c"}');
  });

  it('when a field name is an array index or __proto__, then the text still matches the record object', () => {
    const fields = ['userId', '2', '__proto__', '10', 'b'];
    const values = ['u', 'two', { polluted: true }, 'ten', 'bee'];
    expect(recordJson(fields)(values)).toBe(asObject(fields, values));
  });

  it('when a value is a bigint, then writing throws as JSON.stringify does', () => {
    expect(() => recordJson(['a'])([1n])).toThrow(TypeError);
  });
});
