// The public intent sets the understanding benchmarks run on, read in place from the team's shared
// data folder (never copied into the repository): BANKING77 (PolyAI, CC BY 4.0) and HWU64
// (Liu et al. 2019, CC BY 4.0). Both come as `train.csv` / `test.csv` with columns text,category.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Example {
  readonly text: string;
  readonly intent: string;
}

export const DATA_SETS = ['banking77', 'hwu64'] as const;
export type DataSetName = (typeof DATA_SETS)[number];

/**
 * Where a set lives: NLP_DATA_DIR/<name> when set, else the first `shared/data/<name>` beside
 * the repository or one of its parent folders (a worktree sits deeper than the main checkout).
 */
export function dataDir(name: DataSetName): string | null {
  if (process.env.NLP_DATA_DIR) return path.join(process.env.NLP_DATA_DIR, name);
  let dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  for (;;) {
    const candidate = path.join(dir, 'shared', 'data', name);
    if (existsSync(path.join(candidate, 'train.csv'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export interface DataSet {
  readonly name: DataSetName;
  readonly train: readonly Example[];
  readonly test: readonly Example[];
}

/** The set, or null when its files are not there (benchmarks then say so and skip it). */
export function readDataSet(name: DataSetName): DataSet | null {
  const dir = dataDir(name);
  if (!dir) return null;
  return { name, train: readSplit(dir, 'train'), test: readSplit(dir, 'test') };
}

function readSplit(dir: string, split: 'train' | 'test'): Example[] {
  const rows = parseCsv(readFileSync(path.join(dir, `${split}.csv`), 'utf8')).slice(1);
  return rows
    .filter((r) => r.length === 2 && r[0]?.trim())
    .map(([text, intent]) => ({ text: (text as string).trim(), intent: (intent as string).trim() }));
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(source: string): string[][] {
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
