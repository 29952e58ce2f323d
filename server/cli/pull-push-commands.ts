import { optionParts } from './option-parts.ts';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isYaml } from '../definition/read-source.ts';
import type { CommandIo } from './check-command.ts';
import { StudioCallError, studioCall, studioJson, studioTarget, type StudioTarget } from './studio-client.ts';

export const PULL_USAGE =
  'pull <bot.json|bot.yaml> [--version vN|--head] [--url URL] [--token TOKEN]   write the published version (or another) from the studio to the file';
export const PUSH_USAGE =
  'push <bot.json|bot.yaml> [-m|--message TEXT] [--publish] [--url URL] [--token TOKEN]   save the file in the studio as a new version (and publish it)';

interface VersionMeta {
  readonly id: string;
  readonly source: string;
  readonly message: string;
  readonly author: { readonly name?: string; readonly email?: string; readonly kind: string };
}
interface Problem {
  readonly path: string;
  readonly message: string;
  readonly hint?: string;
  readonly severity: 'error' | 'warning';
}

const line = (problem: Problem) =>
  `  ${problem.severity === 'warning' ? 'warning: ' : ''}${problem.path}: ${problem.message}${problem.hint ? `. ${problem.hint}` : ''}`;

/** Splits `--name value` / `--name=value` options from the file; flags take no value. */
function options(
  args: readonly string[],
  valued: readonly string[],
  flags: readonly string[],
): { files: string[]; values: Map<string, string>; set: Set<string>; problem?: string } {
  const files: string[] = [];
  const values = new Map<string, string>();
  const set = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = optionParts(arg);
    if (valued.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) return { files, values, set, problem: `${name} needs a value` };
      values.set(name, value);
    } else if (flags.includes(name)) set.add(name);
    else if (arg.startsWith('-')) return { files, values, set, problem: `Unknown option ${arg}` };
    else files.push(arg);
  }
  return { files, values, set };
}

async function withTarget(
  args: readonly string[],
  io: CommandIo,
  usage: string,
  run: (target: StudioTarget, rest: string[]) => Promise<number>,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`Usage: chatbot ${usage}\n`);
    return 0;
  }
  const { target, rest, problem } = studioTarget(args, io.env);
  if (!target) {
    io.stderr.write(`${problem}.\nUsage: chatbot ${usage}\n`);
    return 2;
  }
  try {
    return await run(target, rest);
  } catch (error) {
    if (!(error instanceof StudioCallError)) throw error;
    io.stderr.write(`${error.message}${error.code === 'unauthenticated' ? ' (check the API token)' : ''}\n`);
    const problems = (error.details?.problems as Problem[] | undefined) ?? [];
    for (const p of problems) io.stderr.write(`${line(p)}\n`);
    return 1;
  }
}

/** npm run moves to the package folder; a path is meant from where the author typed it. */
const resolved = (io: CommandIo, file: string) => path.resolve(io.env.INIT_CWD ?? '.', file);

/**
 * `chatbot pull bot.json`: the published version (or `--version vN`, or `--head` for the newest
 * saved) as the studio exports it: canonical key order, so `git diff` shows only what changed.
 * The file is replaced whole (written beside it, then renamed).
 */
export function pullCommand(args: readonly string[], io: CommandIo): Promise<number> {
  return withTarget(args, io, PULL_USAGE, async (target, rest) => {
    const { files, values, set, problem } = options(rest, ['--version'], ['--head']);
    if (problem || files.length !== 1 || (values.has('--version') && set.has('--head'))) {
      io.stderr.write(`${problem ? `${problem}. ` : 'Name one file to write. '}Usage: chatbot ${PULL_USAGE}\n`);
      return 2;
    }
    const file = resolved(io, files[0]!);
    const list = await studioJson<{ publishedId: string | null; headId: string | null }>(
      target,
      'GET',
      '/versions?limit=1',
    );
    const id = values.get('--version') ?? (set.has('--head') ? list.headId : list.publishedId);
    if (!id) {
      io.stderr.write('The studio has no version yet.\n');
      return 1;
    }
    const res = await studioCall(
      target,
      'GET',
      `/versions/${encodeURIComponent(id)}/export?format=${isYaml(file) ? 'yaml' : 'json'}`,
    );
    const text = await res.text();
    const temporary = `${file}.pull-${process.pid}`;
    await writeFile(temporary, text);
    await rename(temporary, file);
    io.stdout.write(`Wrote version ${id}${id === list.publishedId ? ' (published)' : ''} to ${file}\n`);
    return 0;
  });
}

/**
 * `chatbot push bot.json`: the file becomes a new version (source "push"); with `--publish` it is
 * published at once, stranded users going to their dialog's start (settings.recovery) and the
 * plan's diff printed. Problems that block publishing exit 1 and publish nothing.
 */
export function pushCommand(args: readonly string[], io: CommandIo): Promise<number> {
  return withTarget(args, io, PUSH_USAGE, async (target, rest) => {
    const { files, values, set, problem } = options(rest, ['--message', '-m'], ['--publish']);
    if (problem || files.length !== 1) {
      io.stderr.write(`${problem ? `${problem}. ` : 'Name one file to push. '}Usage: chatbot ${PUSH_USAGE}\n`);
      return 2;
    }
    const file = resolved(io, files[0]!);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      io.stderr.write(
        `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).\n`,
      );
      return 1;
    }
    const message = values.get('--message') ?? values.get('-m') ?? `Pushed from ${path.basename(file)}`;
    const res = await studioCall(target, 'POST', `/import?message=${encodeURIComponent(message)}`, {
      type: isYaml(file) ? 'application/yaml' : 'application/json',
      text,
    });
    const saved = (await res.json()) as { created: boolean; version: VersionMeta; problems: Problem[] };
    io.stdout.write(
      saved.created
        ? `Saved ${file} as version ${saved.version.id}\n`
        : `The studio's newest version ${saved.version.id} already holds ${file}; nothing was saved\n`,
    );
    for (const p of saved.problems) io.stdout.write(`${line(p)}\n`);
    if (!set.has('--publish')) return saved.problems.some((p) => p.severity === 'error') ? 1 : 0;

    const plan = await studioJson<{
      liveVersionId: string | null;
      problems: Problem[];
      diff: { words: string }[];
      stranded: {
        dialogId: string;
        stepId: string;
        users: number;
        defaultTarget: { dialogId: string; stepId: string } | null;
      }[];
    }>(target, 'POST', '/publish/plan', { versionId: saved.version.id });
    if (plan.liveVersionId === saved.version.id) {
      io.stdout.write(`Version ${saved.version.id} is live already.\n`);
      return 0;
    }
    if (plan.problems.some((p) => p.severity === 'error')) {
      io.stderr.write(
        `Not published: version ${saved.version.id} has problems that block publishing (listed above).\n`,
      );
      return 1;
    }
    for (const change of plan.diff) io.stdout.write(`  ${change.words}\n`);
    for (const s of plan.stranded) {
      io.stdout.write(
        `  ${s.users} user${s.users === 1 ? '' : 's'} resting on ${s.dialogId}.${s.stepId} move to ${s.defaultTarget ? `${s.defaultTarget.dialogId}.${s.defaultTarget.stepId}` : '(nowhere)'}\n`,
      );
    }
    await studioJson(target, 'POST', '/publish', { versionId: saved.version.id, moves: [], message });
    io.stdout.write(`Published version ${saved.version.id} (was ${plan.liveVersionId ?? 'none'})\n`);
    return 0;
  });
}
