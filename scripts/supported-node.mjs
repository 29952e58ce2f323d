#!/usr/bin/env node
// Runs a command on a Node this project supports: `node scripts/supported-node.mjs <command> [args…]`.
// `npm start` and `npm test` go through it, so the README's two commands work on any machine:
//   - a Node older than `engines` allows: the pinned LTS (LTS below) is fetched once from the npm
//     registry (the official binaries in the `node` package) into .cache/node-<version>, and the
//     command runs with it first on PATH; one line says so. No global install, no sudo.
//   - a Node newer than the newest tested line, or an odd (non-LTS) line: it runs, after one warning line.
//   - a tested line: it runs, silently.
// Written for old Nodes too (no syntax newer than Node 16's), since it is what they run first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node CI runs the whole suite on, and the one fetched for an older machine. */
export const LTS = '26.10.0';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `engines.node` as its ranges, e.g. "^22.16.0 || ^24.0.0 || ^26.0.0" → [[22,16,0], [24,0,0], [26,0,0]] (each up to the next major). */
export function testedLines(engines) {
  return engines.split('||').map((range) => {
    const match = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(range);
    if (!match)
      throw new Error(`package.json engines.node: "${range.trim()}" is not a caret range (^major.minor.patch)`);
    return match.slice(1).map(Number);
  });
}

const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** What to do on Node `version` ("v22.3.0") given `engines`: 'run', 'warn-newer', 'warn-untested' or 'fetch'. */
export function verdict(version, engines) {
  const current = version.replace(/^v/, '').split('.').map(Number);
  const lines = testedLines(engines).sort(compare);
  if (compare(current, lines[0]) < 0) return 'fetch';
  if (lines.some((line) => line[0] === current[0] && compare(current, line) >= 0)) return 'run';
  return current[0] > lines[lines.length - 1][0] ? 'warn-newer' : 'warn-untested';
}

/** The fetched Node's bin folder, fetching it first when missing. Throws with a sentence when npm cannot. */
export function fetchedNodeBin(version = LTS) {
  const prefix = path.join(root, '.cache', `node-${version}`);
  const bin = path.join(prefix, 'node_modules', 'node', 'bin');
  if (existsSync(path.join(bin, 'node'))) return bin;
  // npm as the one running this script (npm_execpath), else the one on PATH.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
  const result = spawnSync(
    command,
    [
      ...args,
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `node@${version}`,
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (result.status !== 0 || !existsSync(path.join(bin, 'node'))) {
    throw new Error(
      `could not fetch Node ${version} from the npm registry into ${path.relative(root, prefix)} (npm install node@${version} failed); install Node ${LTS} yourself and run this again`,
    );
  }
  return bin;
}

function main() {
  const [command, ...args] = process.argv.slice(2);
  if (command === undefined) {
    process.stderr.write('usage: node scripts/supported-node.mjs <command> [args…]\n');
    process.exit(2);
  }
  const engines = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
  const env = { ...process.env };
  const decision = verdict(process.version, engines);
  if (decision === 'fetch') {
    let bin;
    try {
      bin = fetchedNodeBin();
    } catch (error) {
      process.stderr.write(
        `Node ${process.version} is older than this project supports (${engines}): ${error.message}\n`,
      );
      process.exit(1);
    }
    process.stderr.write(
      `Node ${process.version} is older than this project supports (${engines}): running on Node ${LTS}, fetched from the npm registry into .cache/node-${LTS}.\n`,
    );
    env.PATH = `${bin}${path.delimiter}${env.PATH ?? ''}`;
    // npm sets these for the script it runs; the child's npm must take the new node, not this one.
    delete env.npm_node_execpath;
    delete env.NODE;
  } else {
    // The command's `node` is the one running this, whatever else is on PATH.
    env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
  }
  if (decision === 'warn-newer') {
    process.stderr.write(
      `Warning: Node ${process.version} is newer than any Node this project is tested on (${engines}); running on it anyway.\n`,
    );
  } else if (decision === 'warn-untested') {
    process.stderr.write(
      `Warning: Node ${process.version} is not a line this project is tested on (${engines}); running on it anyway.\n`,
    );
  }
  const child = spawn(command, args, { stdio: 'inherit', env });
  // Ctrl+C reaches the whole process group, the child included: wait for it rather than leave it behind.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (signal !== 'SIGINT') child.kill(signal);
    });
  }
  child.on('error', (error) => {
    process.stderr.write(`cannot run ${command}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
