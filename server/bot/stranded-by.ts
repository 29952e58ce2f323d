import { loadDefinition } from '../definition/load.ts';
import type { BotDefinition } from '../definition/schema.ts';
import type { Recovery } from '../engine/recovery.ts';
import { strandedPositions } from '../engine/stranded.ts';

/**
 * The positions a new definition would strand, read from two definition files, and the new one
 * (its settings.recovery says how a stranded user is moved). Throws DefinitionError naming a file
 * that does not pass the checks.
 */
export async function strandedBy(
  oldFile: string,
  newFile: string,
): Promise<{ readonly stranded: readonly Recovery[]; readonly after: BotDefinition }> {
  const before = await loadDefinition(oldFile);
  const after = await loadDefinition(newFile);
  return { stranded: strandedPositions(before, after), after };
}
