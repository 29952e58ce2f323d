import { describe, expect, it } from 'vitest';
import { failedTests } from './failed-tests.mjs';

describe('the failed tests printed again at the end of npm test', () => {
  const root = '/repo';

  it('when a report has a failed test among passing ones, then it is named with its file and the first line of why', () => {
    const report = {
      testResults: [
        { name: '/repo/server/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'a works' }] },
        {
          name: '/repo/server/b.test.ts',
          status: 'failed',
          assertionResults: [
            { status: 'passed', fullName: 'b one' },
            { status: 'failed', fullName: 'b two', failureMessages: ['\u001b[31mAssertionError: expected 200 to be 503\u001b[39m\n    at b.test.ts:12:3'] },
          ],
        },
      ],
    };
    expect(failedTests(report, root)).toEqual(['server/b.test.ts > b two', '    AssertionError: expected 200 to be 503']);
  });

  it('when a file fails before any test runs, then the file is named with its error', () => {
    const report = { testResults: [{ name: '/repo/server/c.test.ts', status: 'failed', message: 'Error: Cannot find module x\n  at import', assertionResults: [] }] };
    expect(failedTests(report, root)).toEqual(['server/c.test.ts (failed outside its tests: in a hook or on import; its error is further up)', '    Error: Cannot find module x']);
  });

  it('when nothing failed, then there is nothing to print', () => {
    expect(failedTests({ testResults: [{ name: '/repo/x.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'x' }] }] }, root)).toEqual([]);
  });
});
