/**
 * Finds a Mongo-compatible server for the tests and benches: MONGODB_URL, else a
 * `mongod` on PATH, else a prebuilt `ferretdb` on a private PostgreSQL cluster
 * (Debian's postgresql package: initdb and pg_ctl, on a free port in a temporary
 * folder, gone when the run ends). It never builds or downloads one; without any it
 * says why.
 *
 * Why PostgreSQL under FerretDB rather than its SQLite backend: SQLite takes one
 * writer at a time for the whole database, so every write of every test and node
 * queued behind one lock ("database is locked" under load), which MongoDB does not
 * do; PostgreSQL locks rows, as MongoDB locks documents. What FerretDB 1.x still
 * lacks either way: transactions, change streams, and atomic filtered updates (it
 * reads, changes the document in Go and writes it back by _id), so the adapter's
 * locks (stores/mongo/key-lock.ts) stay.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

export type MongoTestServer =
  | {
      readonly url: string;
      readonly kind: 'MONGODB_URL' | 'mongod' | 'ferretdb' | 'mongo-java-server';
      /** What it is, for the one line the test run prints (no credentials). */
      readonly description: string;
      stop(): Promise<void>;
    }
  | { readonly url: null; readonly reason: string };

const READY_TIMEOUT_MS = 20_000;
const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

export async function startMongoTestServer(): Promise<MongoTestServer> {
  const fromEnv = process.env.MONGODB_URL;
  if (fromEnv !== undefined && fromEnv !== '') {
    const host = /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?]*)/i.exec(fromEnv)?.[1] ?? '(unparseable URL)';
    return { url: fromEnv, kind: 'MONGODB_URL', description: `MONGODB_URL (${host})`, stop: async () => {} };
  }

  const mongod = onPath('mongod');
  if (mongod !== null) {
    return startChild('mongod', mongod, (dir, port) => [
      '--dbpath',
      dir,
      '--port',
      String(port),
      '--bind_ip',
      '127.0.0.1',
      '--quiet',
    ]);
  }

  const ferretdb = findFerretdb();
  if (ferretdb !== null) {
    const postgres = await startPostgres();
    if ('reason' in postgres) return { url: null, reason: `FerretDB needs PostgreSQL: ${postgres.reason}` };
    const server = await startChild('ferretdb', ferretdb, (dir, port) => [
      '--handler=postgresql',
      // FerretDB 1.24 keeps 50 PostgreSQL connections unless told otherwise, and with more than that many requests in
      // flight it stopped answering anyone (seen with three nodes' driver pools of 100 each under a burst). 150 stays
      // below the cluster's max_connections (200) and above one node's default driver pool (100).
      `--postgresql-url=${postgres.url}?pool_max_conns=150`,
      `--state-dir=${dir}`,
      `--listen-addr=127.0.0.1:${port}`,
      // '-' turns the debug/metrics listener off, so parallel runs don't fight over :8088.
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
    ]);
    if (server.url === null) {
      await postgres.stop();
      return server;
    }
    return {
      ...server,
      description: `${server.description} on PostgreSQL ${postgres.version}`,
      stop: async () => {
        await server.stop();
        await postgres.stop();
      },
    };
  }

  return {
    url: null,
    reason:
      'no MONGODB_URL, no mongod on PATH, and no ferretdb binary in PATH, /root/go/bin, $(go env GOPATH)/bin or .cache/bin ' +
      '(run the provision script to build FerretDB)',
  };
}

/** Where Debian's postgresql package puts initdb and pg_ctl (the newest version), else PATH. */
function postgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions)
      if (existsSync(join(base, version, 'bin', 'initdb'))) return join(base, version, 'bin');
  }
  const initdb = onPath('initdb');
  return initdb === null ? null : dirname(initdb);
}

/**
 * A private PostgreSQL cluster for one run: initdb in a temporary folder, pg_ctl on a free
 * loopback port, trust authentication (loopback only, and gone with the folder). initdb
 * refuses to run as root, so as root the cluster belongs to the package's `postgres` user.
 * Durability settings are off: a test run never survives a power cut, and fsync would only
 * slow every write.
 */
async function startPostgres(): Promise<{ url: string; version: string; stop(): Promise<void> } | { reason: string }> {
  const bin = postgresBin();
  if (bin === null) return { reason: 'initdb is not installed (Debian package postgresql; run the provision script)' };
  const dir = await mkdtemp(join(tmpdir(), 'postgres-test-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }) : null;
  if (asRoot && owner?.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    return { reason: 'running as root, and there is no postgres user to own the cluster (initdb refuses root)' };
  }
  const run = (command: string, args: string[]) =>
    asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { encoding: 'utf8' })
      : spawnSync(join(bin, command), args, { encoding: 'utf8' });
  if (asRoot) {
    await chmod(dir, 0o755);
    spawnSync('chown', ['postgres', dir]);
  }
  const stop = async () => {
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    await rm(dir, { recursive: true, force: true });
  };
  const init = run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  if (init.status !== 0) {
    await stop();
    return { reason: `initdb failed: ${(init.stderr ?? '').trim().split('\n').pop()}` };
  }
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${dir}'`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const started = run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'postgres.log'),
    '-o',
    options,
    '-w',
    '-t',
    '60',
    'start',
  ]);
  if (started.status !== 0) {
    const log = await readFile(join(dir, 'postgres.log'), 'utf8').catch(() => '');
    await stop();
    return {
      reason: `pg_ctl start failed: ${(started.stderr ?? '').trim()} ${log.trim().split('\n').slice(-3).join(' ')}`,
    };
  }
  const version = /(\d+(?:\.\d+)?)/.exec(run('pg_ctl', ['--version']).stdout ?? '')?.[1] ?? 'unknown version';
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, version, stop };
}

async function startChild(
  kind: 'mongod' | 'ferretdb',
  binary: string,
  args: (dir: string, port: number) => string[],
): Promise<MongoTestServer> {
  const dir = await mkdtemp(join(tmpdir(), `${kind}-test-`));
  const port = await freePort();
  const child = spawn(binary, args(dir, port), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const url = `mongodb://127.0.0.1:${port}/`;
  const stop = async () => {
    await kill(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, child);
  } catch (error) {
    await stop();
    return { url: null, reason: `${kind} (${binary}) did not start: ${(error as Error).message}\n${stderr.trim()}` };
  }
  return { url, kind, description: `${kind} ${versionOf(binary)} at 127.0.0.1:${port}`, stop };
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((done) => setTimeout(done, 200));
    } finally {
      await client.close();
    }
  }
  throw new Error(`no answer to ping within ${READY_TIMEOUT_MS} ms: ${(lastError as Error | null)?.message ?? ''}`);
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

function findFerretdb(): string | null {
  const fromPath = onPath('ferretdb');
  if (fromPath !== null) return fromPath;
  const candidates = [join('/root/go/bin', 'ferretdb'), join(repoRoot, '.cache', 'bin', 'ferretdb')];
  const gopath = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' });
  if (gopath.status === 0 && gopath.stdout.trim() !== '') {
    for (const dir of gopath.stdout.trim().split(delimiter)) candidates.splice(1, 0, join(dir, 'bin', 'ferretdb'));
  }
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

function versionOf(binary: string): string {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 5000 });
  const text = `${result.stdout ?? ''}`;
  return /v?(\d+\.\d+\.\d+)/.exec(text)?.[1] ?? 'unknown version';
}
