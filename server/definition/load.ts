import { readFile } from 'node:fs/promises';
import { botDefinitionSchema, type BotDefinition } from './schema.ts';
import { checkReferences } from './references.ts';

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
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

/** Validates a parsed definition: schema first, then every cross-reference. Never throws on bad input. */
export function validateDefinition(
  input: unknown,
): { ok: true; definition: BotDefinition } | { ok: false; problems: string[] } {
  const parsed = botDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`) };
  }
  const problems = checkReferences(parsed.data);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, definition: parsed.data };
}

/** Reads and validates the definition file; throws a DefinitionError listing every problem with its path. */
export async function loadDefinition(file: string): Promise<BotDefinition> {
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
  const result = validateDefinition(json);
  if (!result.ok) throw new DefinitionError(file, result.problems);
  return result.definition;
}
