/**
 * The architecture figures (scripts/architecture-figures.mjs) can only get better: scripts/architecture-limits.json
 * holds the most the product code may have of import circles, arrows up and long functions (data tables aside).
 * A step that improves a figure lowers its limit in the same commit; the house's target is 0, 0 and 5.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(root, 'scripts', 'architecture-figures.mjs');
const limits = JSON.parse(readFileSync(path.join(root, 'scripts', 'architecture-limits.json'), 'utf8')) as {
  importCircles: number;
  arrowsUp: number;
  longFunctions: number;
};

interface Figures {
  floors: number;
  arrowsUp: { from: string; to: string; imports: { from: string; to: string }[] }[];
  importCircles: string[][];
  longFunctions: { file: string; line: number; name: string; lines: number }[];
  dataTables: { file: string; line: number; name: string; lines: number }[];
}

/** Runs the script on `dir` with `flags`; its figures, exit status and complaints. */
function figures(dir: string, ...flags: string[]): { figures: Figures; status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [script, '--root', dir, '--json', ...flags], { encoding: 'utf8' });
  if (run.error) throw run.error;
  if (!run.stdout) throw new Error(`architecture-figures printed nothing: ${run.stderr}`);
  return { figures: JSON.parse(run.stdout) as Figures, status: run.status, stderr: run.stderr };
}

describe('the architecture figures of the product code', () => {
  // Two seconds of CPU (TypeScript parses every product file); the time allowed is for a machine busy with other runs.
  it('when the product code is measured, then it has no more import circles, arrows up and long functions than architecture-limits.json allows', () => {
    const maxima = ['--max-circles', limits.importCircles, '--max-arrows-up', limits.arrowsUp];
    const { figures: repo, status } = figures(root, ...maxima.map(String), '--max-long', String(limits.longFunctions));
    const arrows = repo.arrowsUp.map(
      (arrow) => `${arrow.from} → ${arrow.to} (${arrow.imports.map((i) => `${i.from} → ${i.to}`).join(', ')})`,
    );
    const long = repo.longFunctions.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(repo.importCircles.length, repo.importCircles.map((c) => c.join(' ⇄ ')).join('\n')).toBeLessThanOrEqual(
      limits.importCircles,
    );
    expect(repo.arrowsUp.length, arrows.join('\n')).toBeLessThanOrEqual(limits.arrowsUp);
    expect(repo.longFunctions.length, long.join('\n')).toBeLessThanOrEqual(limits.longFunctions);
    expect(status).toBe(0);
  }, 60_000);
});

describe('how the architecture figures are measured', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'architecture-figures-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  const body = (lines: number, line: (i: number) => string) =>
    Array.from({ length: lines }, (_, i) => line(i)).join('\n');
  // a ⇄ b: three imports go down from a to b, one comes back up (and closes the file circle x ⇄ y).
  write('server/a/x.ts', "import { y } from '../b/y.ts';\nimport type { Z } from '../b/z.ts';\nexport const x = y;\n");
  write('server/a/w.ts', "export { y } from '../b/y.ts';\n");
  write(
    'server/b/y.ts',
    "import { log } from '../logger.ts';\nexport const y = () => import('../a/x.ts').then(log);\n",
  );
  write('server/b/z.ts', 'export type Z = number;\n');
  write('server/logger.ts', 'export const log = console.log;\n');
  write('server/main.ts', "import { code, table } from './c/long.ts';\nexport const start = [code, table];\n");
  write(
    'server/c/long.ts',
    [
      "import { y } from '../a/w.ts';",
      `export function code() {\n${body(100, (i) => `  y(${i});`)}\n}`,
      `export function table() {\n  return {\n${body(110, (i) => `    k${i}: ${i},`)}\n  };\n}`,
      `export const short = () => {\n${body(98, (i) => `  y(${i});`)}\n};`,
    ].join('\n'),
  );
  // Tests and their helpers are not product code: neither their circles nor their lengths count.
  write('server/c/long.test.ts', `import '../main.ts';\nexport function t() {\n${body(200, () => '  t();')}\n}\n`);
  write('server/c/test/helper.ts', "import '../../main.ts';\n");
  write('server/ports/notes.md', 'Not code.\n');
  spawnSync('git', ['init', '-q'], { cwd: dir });
  spawnSync('git', ['add', '.'], { cwd: dir });
  // One run for every case: the script takes a second to load TypeScript.
  const fixture = figures(dir, '--max-circles', '0', '--max-arrows-up', '1', '--max-long', '1');

  it('when folders import each other, then the folder edge with the fewest imports is the arrow up, named with its file imports', () => {
    expect(fixture.figures.arrowsUp).toEqual([
      { from: 'server/b', to: 'server/a', imports: [{ from: 'server/b/y.ts', to: 'server/a/x.ts' }] },
    ]);
  });

  it('when a top folder has files of its own, then each is a floor of its own: main.ts above, logger.ts below', () => {
    // server/main.ts → server/c → (server/a ⇄ server/b) → server/logger.ts
    expect(fixture.figures.floors).toBe(4);
  });

  it('when files import each other, type-only and dynamic imports included, then they are an import circle', () => {
    expect(fixture.figures.importCircles).toEqual([['server/a/x.ts', 'server/b/y.ts']]);
  });

  it('when a function is over 100 lines, then it is long, or a data table when its lines are an object literal', () => {
    const { longFunctions, dataTables } = fixture.figures;
    expect(longFunctions.map((f) => [f.file, f.line, f.name, f.lines])).toEqual([['server/c/long.ts', 2, 'code', 102]]);
    expect(dataTables.map((f) => [f.name, f.lines])).toEqual([['table', 114]]);
  });

  it('when a figure is over its maximum, then the script fails and says which', () => {
    expect(fixture.status).toBe(1);
    expect(fixture.stderr).toBe('circles: 1, over the maximum 0\n');
  });
});
