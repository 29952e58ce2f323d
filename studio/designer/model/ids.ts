import { isId } from './references.ts';

/**
 * A free id made from `wanted`: as it is when free, else with the lowest free number after it
 * (`ask`, `ask-2`, `ask-3`). What is not a valid id becomes one (letters first, at most 64).
 */
export function uniqueId(wanted: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let base = wanted
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 56);
  if (!isId(base)) base = 'step';
  if (!used.has(base)) return base;
  const stem = base.replace(/-\d+$/, '');
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
