#!/usr/bin/env node
import { pathToFileURL } from 'node:url';
import { testCommand, TEST_USAGE } from './test-command.ts';
import { compareCommand, COMPARE_USAGE } from './compare-command.ts';

/** The bot author's commands: one entry, a subcommand each (each in its own file). */
const commands: Record<string, (args: readonly string[]) => Promise<number>> = {
  test: (args) => testCommand(args),
  compare: (args) => compareCommand(args),
};

const USAGE = ['Usage: chatbot <command> …', `  ${TEST_USAGE}`, `  ${COMPARE_USAGE}`].join('\n');

export async function run(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (!command) {
    process.stderr.write(`${name === undefined || name === '--help' ? '' : `Unknown command "${name}". `}${USAGE}\n`);
    return name === '--help' ? 0 : 2;
  }
  return command(args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`chatbot: ${(error as Error).message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
