import path from 'node:path';
import { checkDefinitionFile, formatProblem, isError } from '../bot/check-definition.ts';

export interface CommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const CHECK_USAGE =
  'check <bot.json|bot.yaml> [--json]   validate a bot definition as start-up does, without opening a store or a port';

/**
 * `check bot.json`: one line per problem (`path: problem. Hint`), exit 1 when any is an error.
 * `--json` prints `{ file, ok, problems: [{ path, message, hint?, severity }] }` for editors and CI.
 */
export async function checkCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  const unknown = files.filter((a) => a.startsWith('-'));
  if (files.length !== 1 || unknown.length > 0) {
    io.stderr.write(`${unknown.length > 0 ? `Unknown option ${unknown[0]}. ` : ''}Usage: chatbot ${CHECK_USAGE}\n`);
    return 2;
  }
  // npm run moves to the package folder; the path was written relative to where the author typed it.
  const file = path.resolve(io.env.INIT_CWD ?? '.', files[0]!);
  const result = await checkDefinitionFile(file, { env: io.env });
  const failed = result.problems.some(isError);
  if (json) {
    const problems = result.problems.map((p) => ({
      path: p.path,
      message: p.message,
      ...(p.hint ? { hint: p.hint } : {}),
      severity: p.severity ?? 'error',
    }));
    io.stdout.write(`${JSON.stringify({ file, ok: !failed, problems }, null, 2)}\n`);
  } else {
    for (const problem of result.problems) io.stdout.write(`${formatProblem(problem)}\n`);
    if (!failed)
      io.stderr.write(
        `${file}: the bot definition is valid${result.problems.length > 0 ? ` (${result.problems.length} warning${result.problems.length === 1 ? '' : 's'})` : ''}\n`,
      );
  }
  return failed ? 1 : 0;
}
