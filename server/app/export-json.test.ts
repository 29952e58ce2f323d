import { describe, expect, it } from 'vitest';
import { recordJson } from '../api/management/record-json.ts';
import { storedTextRecord } from './export-json.ts';

const FIELDS = ['userId', 'timestamp', 'email', 'name', 'score', 'tags'];
const T = Date.UTC(2026, 10, 21, 9, 30, 0, 123);

/** The record as the general writer writes it: from values, a missing field as null. */
const general = (fields: readonly string[], userId: string, timestamp: number, data: Record<string, unknown>) =>
  recordJson(fields)([
    userId,
    new Date(timestamp).toISOString(),
    ...fields.slice(2).map((field) => (data[field] === undefined ? null : data[field])),
  ]);

describe('storedTextRecord', () => {
  it("when the data's keys are the first data fields in order, then the record is byte for byte the general writer's", () => {
    const write = storedTextRecord(FIELDS)!;
    const samples: [string, Record<string, unknown>][] = [
      [
        'u1',
        {
          email: 'a@b.c',
          name: 'Zoë "Z", Jr.\nline two',
          score: 1.5,
          tags: ['x', { nested: 'y"z', deep: [1, null, true] }],
        },
      ],
      ['u "quoted" \\ id', { email: 'a@b.c', name: '😀 café 日本' }],
      ['u-2', { email: '' }],
      ['u-3', {}],
      ['u-4', { email: '\ud800 lone', name: null, score: 0, tags: [] }],
      ['u\u0000\u001f\ttab', { email: 'e' }],
      ['lone \udfff and pair 😀', { email: 'e' }],
      ['\u007f é ~ /', { email: 'e' }],
      ['', { email: 'e' }],
    ];
    for (const [userId, data] of samples) {
      expect(write(userId, T, JSON.parse(JSON.stringify(data)) as Record<string, unknown>, JSON.stringify(data))).toBe(
        general(FIELDS, userId, T, data),
      );
    }
  });

  it('when the data has other keys, another order or an undefined value, then it declines and the record is written from its values', () => {
    const write = storedTextRecord(FIELDS)!;
    for (const data of [
      { name: 'N', email: 'e' },
      { email: 'e', extra: 1 },
      { email: 'e', name: 'n', score: 1, tags: [], more: true },
      { email: undefined },
    ]) {
      expect(write('u', T, data, JSON.stringify(data))).toBeUndefined();
    }
  });

  it('when a field is listed twice or named like an array index, then the stored text is never used', () => {
    expect(storedTextRecord(['userId', 'timestamp', 'email', 'userId'])).toBeNull();
    expect(storedTextRecord(['userId', 'timestamp', 'email', 'email'])).toBeNull();
    expect(storedTextRecord(['userId', 'timestamp', '2', 'b'])).toBeNull();
    expect(storedTextRecord(['userId', 'timestamp', '__proto__'])).toBeNull();
  });
});
