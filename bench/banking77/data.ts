// BANKING77 (CC BY 4.0, PolyAI): read from the shared data folder beside the repository, never copied into it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Example {
  readonly text: string;
  readonly intent: string;
}

export const DATA_DIR = fileURLToPath(new URL('../../../shared/data/banking77/', import.meta.url));

export function readSplit(name: 'train' | 'test'): Example[] {
  const rows = parseCsv(readFileSync(`${DATA_DIR}${name}.csv`, 'utf8')).slice(1);
  return rows.filter((r) => r.length === 2 && r[0]?.trim()).map(([text, intent]) => ({ text: (text as string).trim(), intent: (intent as string).trim() }));
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quoted) {
      if (ch === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

export function intentsOf(examples: readonly Example[]): string[] {
  return [...new Set(examples.map((e) => e.intent))].sort();
}

/** Twenty intents spread evenly through the sorted list: held out of training, their test queries are out of scope. */
export function heldOut(intents: readonly string[]): Set<string> {
  return new Set(intents.filter((_, i) => (i * 20) % intents.length < 20));
}

/** The first `n` training examples of each intent (what a bot author would write). */
export function firstPerIntent(examples: readonly Example[], n: number): Example[] {
  const seen = new Map<string, number>();
  return examples.filter((e) => {
    const count = seen.get(e.intent) ?? 0;
    seen.set(e.intent, count + 1);
    return count < n;
  });
}
