/**
 * Finds a Mongo-compatible server for the store contract tests: MONGODB_URL,
 * else a `mongod` on PATH, else a prebuilt `ferretdb` (SQLite backend). It
 * never builds or downloads one; without any it says why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
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
    return startChild('mongod', mongod, (dir, port) => ['--dbpath', dir, '--port', String(port), '--bind_ip', '127.0.0.1', '--quiet']);
  }

  const ferretdb = findFerretdb();
  if (ferretdb !== null) {
    return startChild('ferretdb', ferretdb, (dir, port) => [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--state-dir=${dir}`,
      `--listen-addr=127.0.0.1:${port}`,
      // '-' turns the debug/metrics listener off, so parallel runs don't fight over :8088.
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
    ]);
  }

  return {
    url: null,
    reason:
      'no MONGODB_URL, no mongod on PATH, and no ferretdb binary in PATH, /root/go/bin, $(go env GOPATH)/bin or .cache/bin ' +
      '(run the provision script to build FerretDB)',
  };
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
