import { readFile } from 'node:fs/promises';
import { botDefinitionSchema, type BotDefinition } from './schema.ts';
import { parseDuration } from './duration.ts';
import { checkReferences, pathKey } from './references.ts';

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

/** Formats a zod issue path the way people read it: `dialogs[2].steps[4].next`. */
export { pathKey };

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += pathKey(String(part), out === '');
  }
  return out === '' ? '(root)' : out;
}

/** Validates a parsed definition: schema first, then every cross-reference. Never throws on bad input. */
export function validateDefinition(
  input: unknown,
  options: ValidateOptions = {},
): { ok: true; definition: BotDefinition } | { ok: false; problems: string[] } {
  const parsed = botDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`) };
  }
  const problems = checkReferences(parsed.data);
  const definition = options.env ? resolveEnvironment(parsed.data, options.env, problems) : parsed.data;
  return problems.length > 0 ? { ok: false, problems } : { ok: true, definition };
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

/** Reads and validates the definition file; throws a DefinitionError listing every problem with its path. */
export async function loadDefinition(file: string, options: ValidateOptions = {}): Promise<BotDefinition> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new DefinitionError(file, [`cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DefinitionError(file, [`is not valid JSON: ${(error as Error).message}`]);
  }
  const result = validateDefinition(json, options);
  if (!result.ok) throw new DefinitionError(file, result.problems);
  return result.definition;
}
