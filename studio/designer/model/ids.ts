import { isId } from './references.ts';

/** Letters an id cannot hold, spelt as German writes them without the mark ("löschen" → "loeschen", not "l-schen"). */
const SPELT: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/**
 * The words a person sees (a step kind's or a dialog's name in the studio's language) as the id a new
 * one is given: lower case, the words joined by "-" ("Send a webhook" → `send-a-webhook`, "Benutzerdaten
 * löschen" → `benutzerdaten-loeschen`). uniqueId makes it valid and free.
 */
export function idFromWords(words: string): string {
  return words
    .toLowerCase()
    .replace(/[äöüß]/g, (letter) => SPELT[letter]!)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

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
