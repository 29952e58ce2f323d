/**
 * Every folder of the product code has an import rule (eslint.config.js, docs/architecture.md "Who may import whom"),
 * so that a new folder without one fails here instead of growing unchecked. A folder is a node of the import graph
 * scripts/architecture-figures.mjs draws: a file's directory, or a file directly in a top folder (server/config.ts).
 * The folders that have none yet are listed in scripts/architecture-limits.json; the list can only shrink.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { foldersWithoutImportRule } = JSON.parse(
  readFileSync(path.join(root, 'scripts', 'architecture-limits.json'), 'utf8'),
) as { foldersWithoutImportRule: string[] };
const { folders } = JSON.parse(
  execFileSync(process.execPath, [path.join(root, 'scripts', 'architecture-figures.mjs'), '--root', root, '--json'], {
    encoding: 'utf8',
  }),
) as { folders: { name: string; files: string[] }[] };

/** Whether ESLint applies `no-restricted-imports` to `file` (a rule turned off is none). */
async function hasImportRule(eslint: ESLint, file: string): Promise<boolean> {
  const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown> } | undefined;
  const rule = config?.rules?.['no-restricted-imports'];
  const severity = Array.isArray(rule) ? rule[0] : rule;
  return severity !== undefined && severity !== 0 && severity !== 'off';
}

describe('the import rules cover every folder of the product code', () => {
  it('when each folder is asked for its rules, then only the folders architecture-limits.json lists have no import rule', async () => {
    const eslint = new ESLint({ cwd: root });
    const missing: string[] = [];
    // One file a folder: a rule's files are globs over folders, so its first file stands for all of them.
    for (const { name, files } of folders) if (!(await hasImportRule(eslint, files[0]!))) missing.push(name);
    expect(folders.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['server/config.ts', 'server/stores/mongo', 'shared/protocol.ts', 'widget/embed.ts']),
    );
    expect(missing, 'folders without an import rule (eslint.config.js)').toEqual(foldersWithoutImportRule);
  });
});
