// The failed tests of a Vitest JSON report, as lines to print again at the very end of `npm test`:
// a CI log is often kept only from its end, and a failure in an early stage would scroll out of it.
// Its types are in failed-tests.d.mts.

/** At most this many characters of a failure's first line: enough to tell which expectation broke. */
const MESSAGE_CHARS = 300;

/**
 * One line per failed test ("file > test name") and one indented line with the first line of why;
 * a file that failed before any test ran (an import, a hook) is a line of its own.
 * @param report a parsed Vitest JSON report
 * @param root the folder names are shown relative to
 */
export function failedTests(report, root) {
  const lines = [];
  for (const file of report.testResults) {
    const name = oneLine(file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) {
      lines.push(`${name} > ${oneLine(test.fullName)}`);
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

/** The first non-blank line of a message, without terminal codes, cut to MESSAGE_CHARS. */
function firstLine(text) {
  const line = (text ?? '').split('\n', 64).find((part) => part.trim() !== '');
  return line === undefined ? '' : oneLine(line).trim().slice(0, MESSAGE_CHARS);
}

/** Text as one printable line: Vitest's colour codes go, and so does any other control character (a test's own output may hold any). */
function oneLine(text) {
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
