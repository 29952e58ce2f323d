/**
 * `npm start` and `npm test` run through scripts/supported-node.mjs: on a Node older than
 * `engines` they run on the pinned LTS fetched into .cache, saying so in one line.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LTS, testedLines, verdict } from './supported-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;
const launcher = path.join(root, 'scripts', 'supported-node.mjs');

/** A Node older than `engines` allows on this machine (Debian's, or OLD_NODE), or null. */
function oldNode(): string | null {
  for (const candidate of [process.env.OLD_NODE, '/usr/bin/node'].filter((c): c is string => Boolean(c))) {
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (version && verdict(version, engines) === 'fetch') return candidate;
  }
  return null;
}

describe('the Node that npm start and npm test run on', () => {
  it('when engines is read, then it names the oldest line and the LTS line the launcher fetches', () => {
    const lines = testedLines(engines);
    expect(lines[0]).toEqual([22, 16, 0]);
    expect(lines.map(([major]) => major)).toContain(Number(LTS.split('.')[0]));
  });

  it('when the Node is older, newer, an untested line or a tested one, then the launcher fetches, warns or just runs', () => {
    expect(verdict('v20.20.2', engines)).toBe('fetch');
    expect(verdict('v22.15.1', engines)).toBe('fetch');
    expect(verdict('v22.16.0', engines)).toBe('run');
    expect(verdict('v23.11.0', engines)).toBe('warn-untested');
    expect(verdict('v24.21.0', engines)).toBe('run');
    expect(verdict('v26.10.0', engines)).toBe('run');
    expect(verdict('v27.0.0', engines)).toBe('warn-newer');
  });

  it('when engines holds a range the launcher cannot read, then it says which', () => {
    expect(() => testedLines('>=22')).toThrow(/engines\.node: ">=22" is not a caret range/);
  });

  it('when a command runs under an old Node, then it runs on the fetched LTS with one line saying so', () => {
    const node = oldNode();
    if (node === null) {
      if (process.env.CI === 'true')
        throw new Error('CI=true: no Node older than engines on this machine (set OLD_NODE)');
      console.warn('!!! SKIPPED: no Node older than engines here (set OLD_NODE to one)');
      return;
    }
    const run = spawnSync(node, [launcher, 'node', '-p', 'process.version'], { encoding: 'utf8', timeout: 300_000 });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(`v${LTS}`);
    const lines = run.stderr.split('\n').filter((line) => line.includes('older than this project supports'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`running on Node ${LTS}`);
  });

  it('when the command runs under a supported Node, then its `node` is that Node, whatever else is on PATH, and nothing is printed', () => {
    const run = spawnSync(process.execPath, [launcher, 'node', '-p', 'process.version'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `/usr/bin${path.delimiter}${process.env.PATH ?? ''}` },
    });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(process.version);
    expect(run.stderr).toBe('');
  });

  it('when the command fails, then the launcher exits with its code', () => {
    const run = spawnSync(process.execPath, [launcher, 'node', '-e', 'process.exit(3)'], { encoding: 'utf8' });
    expect(run.status).toBe(3);
  });
});
