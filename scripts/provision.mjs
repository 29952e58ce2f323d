#!/usr/bin/env node
// Provisions what the tests need beyond npm packages, so `npm test` passes on a
// fresh machine by itself:
//   - Debian's Chromium (widget component tests, end-to-end tests), from apt;
//   - a MongoDB-compatible server for the Mongo store's contract leg: FerretDB 1.x
//     built with Go into .cache/bin, unless MONGODB_URL is set or a mongod is on PATH.
// What cannot be provisioned is reported with a loud line. Under CI=true every part
// is required and a missing one exits 1. Prints a JSON summary on its last line.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CI = process.env.CI === 'true';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FERRETDB_VERSION = 'v1.24.0';
export const FERRETDB_BIN = path.join(root, '.cache', 'bin', 'ferretdb');

const loud = (message) => process.stderr.write(`\n!!! ${message}\n\n`);
const say = (message) => process.stdout.write(`[provision] ${message}\n`);

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim() || null;
}

function provisionChromium() {
  if (existsSync(CHROMIUM)) return { ok: true, detail: CHROMIUM };
  const isRoot = process.getuid?.() === 0;
  const permitted = process.env.PROVISION_APT !== '0' && (isRoot || spawnSync('sudo', ['-n', 'true']).status === 0);
  if (!permitted) return { ok: false, detail: `${CHROMIUM} is missing and apt-get is not permitted here (not root, no passwordless sudo)` };
  say('installing Debian chromium with apt-get (about 30 s)…');
  const sudo = isRoot ? [] : ['sudo', '-n'];
  const run = (args) => spawnSync(sudo[0] ?? args[0], sudo.length ? [...sudo.slice(1), ...args] : args.slice(1), {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  run(['apt-get', 'update', '-qq']);
  const install = run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  if (install.status !== 0 || !existsSync(CHROMIUM)) return { ok: false, detail: 'apt-get install chromium failed' };
  return { ok: true, detail: `${CHROMIUM} (installed now)` };
}

/** Builds FerretDB from the Go module proxy. `go install` cannot be used: the proxy refuses the module's version list, and the source needs a version file that only its own build tooling writes. */
function buildFerretdb() {
  if (!onPath('go')) return { ok: false, detail: 'Go is not installed, so FerretDB cannot be built' };
  say(`building FerretDB ${FERRETDB_VERSION} with Go (a few minutes on a fresh machine)…`);
  try {
    const info = JSON.parse(
      execFileSync('go', ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@${FERRETDB_VERSION}`], {
        encoding: 'utf8',
        cwd: tmpdir(),
        env: { ...process.env, GOFLAGS: '-mod=mod' },
      }),
    );
    const work = mkdtempSync(path.join(tmpdir(), 'ferretdb-src-'));
    try {
      cpSync(info.Dir, work, { recursive: true });
      spawnSync('chmod', ['-R', 'u+w', work]);
      writeFileSync(path.join(work, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
      mkdirSync(path.dirname(FERRETDB_BIN), { recursive: true });
      execFileSync('go', ['build', '-o', FERRETDB_BIN, './cmd/ferretdb'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
      chmodSync(FERRETDB_BIN, 0o755);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return { ok: true, detail: `${FERRETDB_BIN} (built now)` };
  } catch (error) {
    return { ok: false, detail: `building FerretDB failed: ${error.message.split('\n')[0]}` };
  }
}

function provisionMongo() {
  if (process.env.MONGODB_URL) return { ok: true, detail: 'MONGODB_URL is set; using that server' };
  const mongod = onPath('mongod');
  if (mongod) return { ok: true, detail: `mongod on PATH (${mongod})` };
  if (existsSync(FERRETDB_BIN)) return { ok: true, detail: FERRETDB_BIN };
  const elsewhere = onPath('ferretdb') ?? [path.join(process.env.HOME ?? '/root', 'go', 'bin', 'ferretdb')].find(existsSync);
  if (elsewhere) return { ok: true, detail: elsewhere };
  return buildFerretdb();
}

const results = { chromium: provisionChromium(), mongo: provisionMongo() };
for (const [part, result] of Object.entries(results)) {
  if (result.ok) say(`${part}: ${result.detail}`);
  else loud(`${part} could not be provisioned: ${result.detail}. ${CI ? 'CI=true requires it: failing.' : 'Tests that need it will be SKIPPED.'}`);
}
process.stdout.write(`${JSON.stringify({ chromium: results.chromium.ok, mongo: results.mongo.ok })}\n`);
if (CI && !Object.values(results).every((r) => r.ok)) process.exit(1);
