import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { toStepType } from '../step-contract/define-step-type.ts';
import { BUILT_IN_STEP_TYPES } from './registry.ts';
import type { CodeStepType } from '../step-contract/step-type.ts';

/** A bot's step type module that cannot be used; the message is one line naming the file and what to fix. */
export class StepTypeModuleError extends Error {
  override readonly name = 'StepTypeModuleError';
  constructor(
    readonly file: string,
    problem: string,
  ) {
    // One line: start-up prints it as is, and a module's syntax error may span several.
    super(`Step type module ${file}: ${problem.replace(/\s*\n\s*/g, ' ').trim()}`);
  }
}

/**
 * Imports the definition's `stepTypes` modules (paths relative to the definition file;
 * the folder may be anywhere, it is the bot author's deployment) and checks each default export.
 */
export async function loadStepTypeModules(paths: readonly string[], definitionFile: string): Promise<CodeStepType[]> {
  const base = path.dirname(path.resolve(definitionFile));
  const builtIn = new Set(BUILT_IN_STEP_TYPES.map((t) => t.name));
  const seen = new Map<string, string>();
  const types: CodeStepType[] = [];
  for (const entry of paths) {
    const file = path.resolve(base, entry);
    const info = await stat(file).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error)
      throw new StepTypeModuleError(
        file,
        info.code === 'ENOENT'
          ? 'no such file; paths in stepTypes are relative to the bot definition'
          : `cannot be read (${info.code ?? info.message})`,
      );
    if (!info.isFile())
      throw new StepTypeModuleError(file, 'is not a file; name the module file itself, e.g. "./steps/crm.mjs"');
    let loaded: { default?: unknown };
    try {
      // The import cache is keyed by URL: naming the file's modification time makes a reload (and the
      // check before it) import a changed module afresh, and an unchanged one from the cache.
      loaded = (await import(`${pathToFileURL(file).href}?mtime=${info.mtimeMs}`)) as { default?: unknown };
    } catch (error) {
      throw new StepTypeModuleError(file, `failed to load: ${(error as Error).name}: ${(error as Error).message}`);
    }
    let type: CodeStepType;
    try {
      type = toStepType(loaded.default);
    } catch (error) {
      throw new StepTypeModuleError(file, (error as Error).message);
    }
    if (builtIn.has(type.name))
      throw new StepTypeModuleError(
        file,
        `step type "${type.name}" clashes with a built-in step type; give it another name`,
      );
    const other = seen.get(type.name);
    if (other)
      throw new StepTypeModuleError(file, `step type "${type.name}" is also defined by ${other}; names must be unique`);
    seen.set(type.name, file);
    types.push(type);
  }
  return types;
}
