import { describe, expect, it } from 'vitest';
import { fileDurations, slowestFiles } from './slowest-files.mjs';

describe('the slowest test files printed at the end of npm test', () => {
  it('when a report holds files of different lengths, then the slowest come first, named from the repository root, with their seconds', () => {
    const report = {
      testResults: [
        { name: '/repo/server/a.test.ts', startTime: 1_000, endTime: 3_500 },
        { name: '/repo/e2e/b.test.ts', startTime: 0, endTime: 61_000 },
        { name: '/repo/server/c.test.ts', startTime: 500, endTime: 900 },
      ],
    };
    expect(slowestFiles(fileDurations(report, '/repo'), 2)).toEqual([
      '     61.0 s  e2e/b.test.ts',
      '      2.5 s  server/a.test.ts',
    ]);
  });

  it('when a file has no timing (it failed to load), then it is left out rather than counted as zero', () => {
    const report = { testResults: [{ name: '/repo/x.test.ts', startTime: Number.NaN, endTime: 5 }] };
    expect(fileDurations(report as never, '/repo')).toEqual([]);
  });
});
