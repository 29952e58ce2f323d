import jsonata from 'jsonata';
import { IntegrationConfigError } from './integration-error.ts';

/** A compiled JSONata expression; compiled once at load so a typo is a start-up error, not a runtime one. */
export type CompiledMapping = (input: unknown) => Promise<unknown>;

export function compileMapping(expression: string, where: string): CompiledMapping {
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(expression);
  } catch (error) {
    throw new IntegrationConfigError(
      `${where}: the JSONata mapping does not parse: ${(error as { message?: string }).message ?? String(error)}`,
    );
  }
  return async (input) => normalise(await compiled.evaluate(input));
}

/** JSONata marks sequences with extra properties; a plain JSON copy is what the tree should store. */
function normalise(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}
