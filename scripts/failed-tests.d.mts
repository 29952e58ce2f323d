/** Types of failed-tests.mjs (plain JavaScript: `npm test` runs it on node before anything is compiled). */
export interface VitestReport {
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: { status: string; fullName?: string; title?: string; failureMessages?: string[] }[];
  }[];
}
export function failedTests(report: VitestReport, root: string): string[];
