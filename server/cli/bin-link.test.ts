import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../paths.ts';
import { compiledEntry } from '../test/compiled-server.ts';
import { runEntry } from './test/run-process.ts';

// npm's bin folder (and so npx) starts the command through a symlink to the package's file.
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

it('chatbot started through a symlink, as npx and node_modules/.bin do, runs its command', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'chatbot-bin-'));
  dirs.push(dir);
  const link = path.join(dir, 'chatbot.js');
  await symlink(await compiledEntry('server/cli/main.ts'), link);
  const ended = await runEntry(link, ['check', path.join(projectRoot(), 'demo', 'bot.json')]);
  expect(ended.code).toBe(0);
  const unknown = await runEntry(link, ['chek']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('Unknown command "chek".');
});
