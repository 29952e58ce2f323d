import type { JsonTestResult } from 'vitest/reporters';

export interface FileDuration {
  readonly file: string;
  readonly seconds: number;
}

/** Types of slowest-files.mjs (plain JavaScript: `npm test` runs it before anything is compiled). */
export function fileDurations(
  report: { testResults?: Pick<JsonTestResult, 'name' | 'startTime' | 'endTime'>[] },
  root: string,
): FileDuration[];
export function slowestFiles(durations: readonly FileDuration[], count: number): string[];
