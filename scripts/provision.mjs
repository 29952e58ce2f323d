#!/usr/bin/env node
// Provisions what the tests need beyond npm packages, so `npm test` passes on a
// fresh machine by itself:
//   - Debian's Chromium (widget component tests, end-to-end tests), from apt;
//   - Debian's nginx, the reverse proxy the end-to-end test puts in front of the server
//     (and the load balancer the cluster test puts in front of three nodes);
//   - Debian's redis-server, which the cluster test starts on a free port;
//     (TLS, WebSocket upgrade, long-polling, X-Forwarded-For), from apt;
//   - a MongoDB-compatible server for the Mongo store's contract leg: FerretDB 1.x
//     built with Go into .cache/bin, on Debian's postgresql (apt; each run starts a
//     private cluster), unless MONGODB_URL is set or a mongod is on PATH;
//   - schemathesis (the OpenAPI contract run), pinned, from PyPI into a Python virtual
//     environment under .cache/schemathesis (Debian's python3-venv from apt when venv needs it).
// What cannot be provisioned is reported with a loud line. Under CI=true every part
// is required and a missing one exits 1. Prints a JSON summary on its last line.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { provisionModels } from './provision-models.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CI = process.env.CI === 'true';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
const FERRETDB_VERSION = 'v1.24.0';
export const FERRETDB_BIN = path.join(root, '.cache', 'bin', 'ferretdb');
const SCHEMATHESIS_VERSION = '4.32.5';
const SCHEMATHESIS_VENV = path.join(root, '.cache', 'schemathesis');
export const SCHEMATHESIS_BIN = path.join(SCHEMATHESIS_VENV, 'bin', 'schemathesis');

const loud = (message) => process.stderr.write(`\n!!! ${message}\n\n`);
const say = (message) => process.stdout.write(`[provision] ${message}\n`);

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim() || null;
}

/** Runs apt-get with the given arguments, or null when it may not run here (not root, no passwordless sudo). */
function aptRunner() {
  const isRoot = process.getuid?.() === 0;
  if (process.env.PROVISION_APT === '0' || (!isRoot && spawnSync('sudo', ['-n', 'true']).status !== 0)) return null;
  const [command, ...prefix] = isRoot ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  return (args) =>
    spawnSync(command, [...prefix, ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
}

let aptUpdated = false;
function aptInstall(pkg) {
  const apt = aptRunner();
  if (!apt) return false;
  if (!aptUpdated) apt(['update', '-qq']);
  aptUpdated = true;
  return apt(['install', '-y', '-qq', '--no-install-recommends', pkg]).status === 0;
}

function provisionChromium() {
  if (existsSync(CHROMIUM)) return { ok: true, detail: CHROMIUM };
  if (!aptRunner())
    return {
      ok: false,
      detail: `${CHROMIUM} is missing and apt-get is not permitted here (not root, no passwordless sudo)`,
    };
  say('installing Debian chromium with apt-get (about 30 s)…');
  if (!aptInstall('chromium') || !existsSync(CHROMIUM)) return { ok: false, detail: 'apt-get install chromium failed' };
  return { ok: true, detail: `${CHROMIUM} (installed now)` };
}

function provisionNginx() {
  if (existsSync(NGINX)) return { ok: true, detail: NGINX };
  if (!aptRunner())
    return {
      ok: false,
      detail: `${NGINX} is missing and apt-get is not permitted here (not root, no passwordless sudo)`,
    };
  say('installing Debian nginx with apt-get…');
  if (!aptInstall('nginx') || !existsSync(NGINX)) return { ok: false, detail: 'apt-get install nginx failed' };
  return { ok: true, detail: `${NGINX} (installed now)` };
}

function provisionRedis() {
  if (existsSync(REDIS_SERVER)) return { ok: true, detail: REDIS_SERVER };
  if (!aptRunner())
    return {
      ok: false,
      detail: `${REDIS_SERVER} is missing and apt-get is not permitted here (not root, no passwordless sudo)`,
    };
  say('installing Debian redis-server with apt-get…');
  if (!aptInstall('redis-server') || !existsSync(REDIS_SERVER))
    return { ok: false, detail: 'apt-get install redis-server failed' };
  // The package starts a system-wide Redis on 6379; the tests start their own on free ports.
  spawnSync('sh', [
    '-c',
    'command -v systemctl >/dev/null && systemctl disable --now redis-server >/dev/null 2>&1 || true',
  ]);
  return { ok: true, detail: `${REDIS_SERVER} (installed now)` };
}

/** The version the virtual environment's schemathesis reports, or null when there is none. */
function schemathesisVersion() {
  if (!existsSync(SCHEMATHESIS_BIN)) return null;
  const result = spawnSync(SCHEMATHESIS_BIN, ['--version'], { encoding: 'utf8' });
  return /version (\S+)/.exec(result.stdout ?? '')?.[1] ?? null;
}

function provisionSchemathesis() {
  if (schemathesisVersion() === SCHEMATHESIS_VERSION)
    return { ok: true, detail: `${SCHEMATHESIS_BIN} ${SCHEMATHESIS_VERSION}` };
  const python = onPath('python3');
  if (!python) return { ok: false, detail: 'python3 is not installed, so schemathesis cannot be installed' };
  rmSync(SCHEMATHESIS_VENV, { recursive: true, force: true });
  const venv = () =>
    spawnSync(python, ['-m', 'venv', SCHEMATHESIS_VENV], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  let made = venv();
  if (made.status !== 0) {
    // Debian splits venv (and its ensurepip) into python3-venv.
    if (!aptRunner())
      return { ok: false, detail: 'python3 -m venv failed and apt-get is not permitted here to install python3-venv' };
    say('installing Debian python3-venv with apt-get…');
    rmSync(SCHEMATHESIS_VENV, { recursive: true, force: true });
    if (!aptInstall('python3-venv') || (made = venv()).status !== 0) {
      return { ok: false, detail: `python3 -m venv failed: ${(made.stderr ?? '').trim().split('\n').pop()}` };
    }
  }
  say(`installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI into ${SCHEMATHESIS_VENV}…`);
  const pip = spawnSync(
    path.join(SCHEMATHESIS_VENV, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const installed = schemathesisVersion();
  if (pip.status !== 0 || installed !== SCHEMATHESIS_VERSION) {
    return {
      ok: false,
      detail: `pip install schemathesis==${SCHEMATHESIS_VERSION} failed${installed ? ` (found ${installed})` : ''}`,
    };
  }
  return { ok: true, detail: `${SCHEMATHESIS_BIN} ${SCHEMATHESIS_VERSION} (installed now)` };
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
      execFileSync('go', ['build', '-o', FERRETDB_BIN, './cmd/ferretdb'], {
        cwd: work,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      chmodSync(FERRETDB_BIN, 0o755);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return { ok: true, detail: `${FERRETDB_BIN} (built now)` };
  } catch (error) {
    return { ok: false, detail: `building FerretDB failed: ${error.message.split('\n')[0]}` };
  }
}

/** initdb of Debian's postgresql package (FerretDB's backend in the tests: scripts/mongo-test-server.ts), or null. */
function findInitdb() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions)
    if (existsSync(path.join(base, version, 'bin', 'initdb'))) return path.join(base, version, 'bin', 'initdb');
  return onPath('initdb');
}

function provisionPostgres() {
  const found = findInitdb();
  if (found) return { ok: true, detail: found };
  if (!aptRunner())
    return {
      ok: false,
      detail: 'initdb is missing and apt-get is not permitted here (not root, no passwordless sudo)',
    };
  say('installing Debian postgresql with apt-get (FerretDB stores on it in the tests)…');
  if (!aptInstall('postgresql') || !findInitdb()) return { ok: false, detail: 'apt-get install postgresql failed' };
  // The package starts a system-wide cluster on 5432; the tests start their own in a temporary folder.
  spawnSync('sh', [
    '-c',
    'command -v systemctl >/dev/null && systemctl disable --now postgresql >/dev/null 2>&1 || (command -v service >/dev/null && service postgresql stop >/dev/null 2>&1) || true',
  ]);
  return { ok: true, detail: `${findInitdb()} (installed now)` };
}

function provisionMongo() {
  if (process.env.MONGODB_URL) return { ok: true, detail: 'MONGODB_URL is set; using that server' };
  const mongod = onPath('mongod');
  if (mongod) return { ok: true, detail: `mongod on PATH (${mongod})` };
  const postgres = provisionPostgres();
  if (!postgres.ok) return { ok: false, detail: `FerretDB needs PostgreSQL: ${postgres.detail}` };
  if (existsSync(FERRETDB_BIN)) return { ok: true, detail: FERRETDB_BIN };
  const elsewhere =
    onPath('ferretdb') ?? [path.join(process.env.HOME ?? '/root', 'go', 'bin', 'ferretdb')].find(existsSync);
  if (elsewhere) return { ok: true, detail: elsewhere };
  return buildFerretdb();
}

const results = {
  chromium: provisionChromium(),
  nginx: provisionNginx(),
  redis: provisionRedis(),
  mongo: provisionMongo(),
  schemathesis: provisionSchemathesis(),
};
results.models = provisionModels();
for (const [part, result] of Object.entries(results)) {
  if (result.ok) say(`${part}: ${result.detail}`);
  else
    loud(
      `${part} could not be provisioned: ${result.detail}. ${CI ? 'CI=true requires it: failing.' : 'Tests that need it will be SKIPPED.'}`,
    );
}
process.stdout.write(
  `${JSON.stringify(Object.fromEntries(Object.entries(results).map(([part, result]) => [part, result.ok])))}\n`,
);
if (CI && !Object.values(results).every((r) => r.ok)) process.exit(1);
