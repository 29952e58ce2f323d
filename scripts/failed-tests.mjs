// The failed tests of a Vitest JSON report, as lines to print again at the very end of `npm test`:
// a CI log is often kept only from its end, and a failure in an early stage would scroll out of it.

/** At most this many characters of a failure's first line: enough to tell which expectation broke. */
const MESSAGE_CHARS = 300;

/**
 * One line per failed test ("file > test name") and one indented line with the first line of why;
 * a file that failed before any test ran (an import, a hook) is a line of its own.
 * @param {{ testResults?: { name: string, status?: string, message?: string, assertionResults?: { status: string, fullName?: string, title?: string, failureMessages?: string[] }[] }[] }} report
 * @param {string} root the folder names are shown relative to
 * @returns {string[]}
 */
export function failedTests(report, root) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const name = file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) {
      lines.push(`${name} > ${test.fullName ?? test.title ?? '(unnamed)'}`);
      const why = firstLine(test.failureMessages?.[0]);
      if (why) lines.push(`    ${why}`);
    }
    if (failed.length === 0 && file.status === 'failed') {
      lines.push(`${name} (failed outside its tests: in a hook or on import; its error is further up)`);
      const why = firstLine(file.message);
      if (why) lines.push(`    ${why}`);
    }
  }
  return lines;
}

/** @param {string | undefined} text */
function firstLine(text) {
  // Vitest's messages may carry terminal colour codes.
  const line = (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((part) => part.trim() !== '');
  return line === undefined ? '' : line.trim().slice(0, MESSAGE_CHARS);
}
