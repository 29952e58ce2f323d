import { describe, expect, it } from 'vitest';
import { isoTimeFormatter } from './iso-time.ts';

describe('isoTimeFormatter', () => {
  it('when times run in order across days, years and the epoch, then each reads as toISOString writes it', () => {
    const iso = isoTimeFormatter();
    const starts = [
      Date.UTC(2026, 0, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59),
      0,
      Date.UTC(2024, 1, 28, 23),
      Date.UTC(9999, 11, 31, 23, 59, 58),
      -62_167_219_200_000,
    ];
    for (const start of starts) {
      for (let ms = start; ms < start + 5000; ms += 7) expect(iso(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('when times run in order across many minutes, hours and days, with repeats and gaps, then each reads as toISOString writes it', () => {
    const iso = isoTimeFormatter();
    let ms = Date.UTC(2025, 11, 30, 22, 58, 59, 998);
    for (let i = 0; i < 20_000; i++) {
      expect(iso(ms)).toBe(new Date(ms).toISOString());
      ms += [0, 1, 999, 1001, 59_999, 60_001, 3_599_999, 86_400_000][i % 8]!;
    }
  });

  it('when times jump about, including negative years, far years and fractions, then each reads as toISOString writes it', () => {
    const iso = isoTimeFormatter();
    const times = [
      -1, -0, 1.5, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15, 1_764_000_000_123,
    ];
    // Spread over ±9,500 years: inside and outside the years 0–9999.
    for (let i = 0; i < 2000; i++) times.push(Math.round(Math.sin(i) * 3e14));
    for (const ms of times) {
      if (Math.abs(ms) > 8.64e15) continue;
      expect(iso(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('when a time is not one a date can hold, then it throws as toISOString does', () => {
    const iso = isoTimeFormatter();
    for (const ms of [NaN, 8.64e15 + 1, Infinity]) expect(() => iso(ms)).toThrow(RangeError);
  });
});
