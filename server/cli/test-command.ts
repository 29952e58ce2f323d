import path from 'node:path';
import { report } from '../bot/tests/report.ts';
import { couldNotRun, runTestFile } from '../bot/tests/run-tests.ts';
import type { Store } from '../ports/store.ts';

export const TEST_USAGE = 'test <bot.tests.json|yaml>…   run scripted conversations on the bot; exit 1 when one fails';

/** `chatbot test file…`: runs each tests file, prints a line per test and a diff per failure; resolves with the exit code. */
export async function testCommand(
  args: readonly string[],
  out: NodeJS.WritableStream,
  scratchStore: () => Store,
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
      await runTestFile(file, scratchStore, (result) => {
        if (result.failure) failed++;
        else passed++;
        out.write(report(result));
      });
    } catch (error) {
      broken++;
      if (couldNotRun(error)) out.write(`${indent(error.message, 2)}\n`);
      else throw error;
    }
  }
  out.write(
    `\n${passed} passed, ${failed} failed${broken > 0 ? `, ${broken} file${broken === 1 ? '' : 's'} could not run` : ''}\n`,
  );
  return failed > 0 || broken > 0 ? 1 : 0;
}

function indent(text: string, spaces: number): string {
  return text
    .split('\n')
    .map((line) => ' '.repeat(spaces) + line)
    .join('\n');
}
