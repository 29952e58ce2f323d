import { describe, expect, it } from 'vitest';
import { failedTests, type FailedTestsReport } from './failed-tests.mjs';

describe('the failed tests printed again at the end of npm test', () => {
  const root = '/repo';
  type File = FailedTestsReport['testResults'][number];
  const file = (
    name: string,
    status: File['status'],
    assertionResults: File['assertionResults'],
    message = '',
  ): File => ({ name, status, message, assertionResults });
  const test = (fullName: string, status: string, failureMessages: string[] | null = null) =>
    ({ fullName, status, failureMessages }) as File['assertionResults'][number];

  it('when a report has a failed test among passing ones, then it is named with its file and the first line of why', () => {
    const report = {
      testResults: [
        file('/repo/server/a.test.ts', 'passed', [test('a works', 'passed')]),
        file('/repo/server/b.test.ts', 'failed', [
          test('b one', 'passed'),
          test('b two', 'failed', [
            '\u001b[31mAssertionError: expected 200 to be 503\u001b[39m\n    at b.test.ts:12:3',
          ]),
        ]),
      ],
    };
    expect(failedTests(report, root)).toEqual([
      'server/b.test.ts > b two',
      '    AssertionError: expected 200 to be 503',
    ]);
  });

  it('when a file fails before any test runs, then the file is named with its error', () => {
    const report = {
      testResults: [
        file('/repo/server/c.test.ts', 'failed', [test('c', 'skipped')], 'Error: Cannot find module x\n  at import'),
      ],
    };
    expect(failedTests(report, root)).toEqual([
      'server/c.test.ts (failed outside its tests: in a hook or on import; its error is further up)',
      '    Error: Cannot find module x',
    ]);
  });

  it('when a name or message holds control characters or a message is huge, then each is one printable line, the message cut short', () => {
    const report = {
      testResults: [
        file('/repo/server/d.test.ts', 'failed', [
          test('title\u001b]0;owned\u0007 with\nnewline', 'failed', [
            `\n\n\u001b[2J\u0000${'x'.repeat(1_000_000)}\n${'y\n'.repeat(100_000)}`,
          ]),
          test('no message', 'failed', null),
        ]),
      ],
    };
    const lines = failedTests(report, root);
    expect(lines).toHaveLength(3);
    expect(lines.join('')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(lines[0]).toBe('server/d.test.ts > title ]0;owned  with newline');
    expect(lines[1]).toBe(`    ${'x'.repeat(300)}`);
    expect(lines[2]).toBe('server/d.test.ts > no message');
  });

  it('when nothing failed, then there is nothing to print', () => {
    expect(failedTests({ testResults: [file('/repo/x.test.ts', 'passed', [test('x', 'passed')])] }, root)).toEqual([]);
  });
});
