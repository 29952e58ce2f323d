import { botDefinitionSchema, type BotDefinition } from './schema.ts';
import { parseDuration } from './duration.ts';
import { formatPath, pathKey } from './path.ts';
import { formatProblem, type Problem } from './problem.ts';
import { readDefinitionSource } from './read-source.ts';
import { checkReferences } from './references.ts';
import { zodProblems } from './zod-problems.ts';

export interface ValidateOptions {
  /**
   * The environment: wait steps' `durationEnv` is read from it. Omitted: durations stay as written.
   * (Integration secrets are checked by the integration layer at start-up.)
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export class DefinitionError extends Error {
  override readonly name = 'DefinitionError';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`Bot definition ${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Formats a path the way people read it: `dialogs[2].steps[4].next`. */
export { formatPath, pathKey };

/** Validates a parsed definition: schema first, then every cross-reference. Never throws on bad input. */
export function validateDefinition(
  input: unknown,
  options: ValidateOptions = {},
): { ok: true; definition: BotDefinition } | { ok: false; problems: string[] } {
  const result = definitionProblems(input, options);
  return result.definition
    ? { ok: true, definition: result.definition }
    : { ok: false, problems: result.problems.map(formatProblem) };
}

/** The same as validateDefinition, with each problem's path, message and hint apart (for `check --json`). */
export function definitionProblems(
  input: unknown,
  options: ValidateOptions = {},
): { definition?: BotDefinition; problems: Problem[] } {
  const parsed = botDefinitionSchema.safeParse(input);
  if (!parsed.success) return { problems: zodProblems(parsed.error.issues, input, botDefinitionSchema) };
  const lines = checkReferences(parsed.data);
  const definition = options.env ? resolveEnvironment(parsed.data, options.env, lines) : parsed.data;
  return lines.length > 0 ? { problems: lines.map(toProblem) } : { definition, problems: [] };
}

/** A `path: message` line of the reference checks as a problem. */
export function toProblem(line: string): Problem {
  const at = line.indexOf(': ');
  const message = (at < 0 ? line : line.slice(at + 2)).replace(/\.$/, '');
  return at < 0 ? { path: '(root)', message } : { path: line.slice(0, at), message };
}

/** Puts deployment-specific values in place: a wait step's `durationEnv`, when set, replaces its duration. */
function resolveEnvironment(
  definition: BotDefinition,
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): BotDefinition {
  const dialogs = definition.dialogs.map((dialog, d) => ({
    ...dialog,
    steps: dialog.steps.map((step, s) => {
      if (step.type !== 'wait' || step.durationEnv === undefined) return step;
      const value = env[step.durationEnv]?.trim();
      if (value === undefined || value === '') return step;
      if (parseDuration(value) === undefined) {
        problems.push(
          `dialogs[${d}].steps[${s}].durationEnv: ${step.durationEnv} must be a duration such as "30s" or "10m" (got ${JSON.stringify(value)})`,
        );
        return step;
      }
      return { ...step, duration: value };
    }),
  }));
  return { ...definition, dialogs };
}

/** Reads (JSON, or YAML by its extension) and validates the definition file; throws a DefinitionError listing every problem with its path. */
export async function loadDefinition(file: string, options: ValidateOptions = {}): Promise<BotDefinition> {
  const source = await readDefinitionSource(file);
  if ('problems' in source) throw new DefinitionError(file, source.problems.map(formatProblem));
  const result = validateDefinition(source.value, options);
  if (!result.ok) throw new DefinitionError(file, result.problems);
  return result.definition;
}
