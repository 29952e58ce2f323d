import type { TestResult } from './run-tests.ts';

/** One test's line; a failure adds where it failed and what differed, "-" expected and "+" what the bot did. */
export function report(result: TestResult): string {
  if (!result.failure) return `  ✓ ${result.name}\n`;
  const { step, action, mismatches, warnings } = result.failure;
  const lines = [`  ✗ ${result.name}`, `      step ${step}, ${action}`];
  for (const mismatch of mismatches) {
    lines.push(
      `      ${mismatch.what}${mismatch.what === 'action' || mismatch.what === 'stubs' ? '' : ' (- expected, + actual)'}:`,
    );
    for (const line of mismatch.lines) lines.push(`        ${line}`);
  }
  if (warnings.length > 0) {
    lines.push('      the bot logged:');
    for (const warning of warnings.slice(0, 10)) lines.push(`        ${warning}`);
  }
  return `${lines.join('\n')}\n`;
}
