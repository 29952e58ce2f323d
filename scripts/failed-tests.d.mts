import type { JsonAssertionResult, JsonTestResult } from 'vitest/reporters';

/** The parts of a Vitest JSON report (Vitest's JsonTestResults) that failed-tests.mjs reads. */
export interface FailedTestsReport {
  testResults: (Pick<JsonTestResult, 'name' | 'status' | 'message'> & {
    assertionResults: Pick<JsonAssertionResult, 'status' | 'fullName' | 'failureMessages'>[];
  })[];
}

/** Types of failed-tests.mjs (plain JavaScript: `npm test` runs it on node before anything is compiled). */
export function failedTests(report: FailedTestsReport, root: string): string[];
