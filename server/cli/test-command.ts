import path from 'node:path';
import { DefinitionError } from '../definition/load.ts';
import { StepTypeModuleError } from '../integrations/step-types/load-modules.ts';
import { runTestFile, TestFileError, type TestResult } from './bot-tests/run-tests.ts';

export const TEST_USAGE = 'test <bot.tests.json|yaml>…   run scripted conversations on the bot; exit 1 when one fails';

/** `chatbot test file…`: runs each tests file, prints a line per test and a diff per failure; resolves with the exit code. */
export async function testCommand(
  args: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  const files = args.filter((a) => !a.startsWith('-'));
  const unknown = args.find((a) => a.startsWith('-') && a !== '--help' && a !== '-h');
  if (args.includes('--help') || args.includes('-h')) {
    out.write(`Usage: chatbot ${TEST_USAGE}\n`);
    return 0;
  }
  if (unknown || files.length === 0) {
    out.write(`${unknown ? `Unknown option ${unknown}. ` : 'Name a tests file. '}Usage: chatbot ${TEST_USAGE}\n`);
    return 2;
  }
  let passed = 0;
  let failed = 0;
  let broken = 0;
  for (const file of files) {
    out.write(`${path.relative(process.cwd(), path.resolve(file)) || file}\n`);
    try {
      await runTestFile(file, (result) => {
        if (result.failure) failed++;
        else passed++;
        out.write(report(result));
      });
    } catch (error) {
      broken++;
      if (error instanceof TestFileError || error instanceof DefinitionError || error instanceof StepTypeModuleError)
        out.write(`${indent(error.message, 2)}\n`);
      else throw error;
    }
  }
  out.write(
    `\n${passed} passed, ${failed} failed${broken > 0 ? `, ${broken} file${broken === 1 ? '' : 's'} could not run` : ''}\n`,
  );
  return failed > 0 || broken > 0 ? 1 : 0;
}

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

function indent(text: string, spaces: number): string {
  return text
    .split('\n')
    .map((line) => ' '.repeat(spaces) + line)
    .join('\n');
}
