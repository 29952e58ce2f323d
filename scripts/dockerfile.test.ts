/**
 * The container image's recipe. Where a Docker daemon answers, the image is built and
 * started and must report healthy; elsewhere (this CI has no daemon) the Dockerfile is
 * checked for the parts a production image needs, and its health check command is run
 * against a real server.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledServerMain } from '../server/test/compiled-server.ts';
import { startTestServer, type TestServer } from '../server/test/start-test-server.ts';
import { LTS } from './supported-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** Instructions in order, comments dropped and continuation lines joined. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const all = instructions(dockerfile);
const stages = all.reduce<Instruction[][]>((list, instruction) => {
  if (instruction.keyword === 'FROM') list.push([]);
  list.at(-1)?.push(instruction);
  return list;
}, []);
const final = stages.at(-1) ?? [];
const healthcheck = final.find((i) => i.keyword === 'HEALTHCHECK');
const healthCommand = (): string[] =>
  JSON.parse(/CMD\s+(\[.*\])$/.exec(healthcheck?.args ?? '')?.[1] ?? '[]') as string[];

/** Runs the image's health check command (its `node` is this one) with PORT set; resolves to its exit code. Asynchronous: the server under test shares this process. */
function runHealthCheck(port: number): Promise<number> {
  const [command, ...args] = healthCommand();
  return new Promise((resolve) => {
    const child = spawn(command === 'node' ? process.execPath : command!, args, {
      env: { ...process.env, PORT: String(port) },
      stdio: 'ignore',
      timeout: 10_000,
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

describe('Dockerfile', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('when read, then it builds in one stage and runs in another, from a Node line package.json allows', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]?.[0]?.args).toMatch(/\sAS\s+build$/i);
    expect(final.some((i) => i.keyword === 'COPY' && i.args.startsWith('--from=build'))).toBe(true);
    const [major, minor] = (/^node:(\d+(?:\.\d+){0,2})-/.exec(final[0]?.args ?? '')?.[1] ?? '').split('.');
    expect(major).toBeTruthy();
    const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } })
      .engines.node;
    expect(engines).toMatch(new RegExp(`(\\^${major}\\.|>=\\s*(2[0-${major!.at(-1)}]|${major}))`));
    // Where engines stops below a minor of that line (README, "Node"), the image is pinned below it.
    const below = new RegExp(`<\\s*${major}\\.(\\d+)`).exec(engines)?.[1];
    if (below !== undefined) expect(Number(minor ?? Infinity)).toBeLessThan(Number(below));
    // Both stages on the LTS that CI runs the whole suite on (and npm start fetches for an old machine).
    for (const stage of stages) expect(stage[0]?.args).toMatch(new RegExp(`^node:${LTS.replaceAll('.', '\\.')}-`));
    // The build stage installs exactly the lockfile, and the runtime gets production dependencies only.
    expect(stages[0]!.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args))).toBe(true);
    expect(stages[0]!.some((i) => i.keyword === 'RUN' && /npm prune --omit=dev/.test(i.args))).toBe(true);
  });

  it('when the image runs, then as an unprivileged user, on all interfaces, with its data in a volume and no secret baked in', () => {
    const user = final.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const env = final
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
    expect(env).toMatch(/DATA_DIR=\/data/);
    expect(final.some((i) => i.keyword === 'VOLUME' && i.args.includes('/data'))).toBe(true);
    expect(
      all
        .filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')
        .map((i) => i.args)
        .join(' '),
    ).not.toMatch(/KEY|SECRET|TOKEN|PASSWORD/);
    const cmd = final.filter((i) => i.keyword === 'CMD').at(-1)?.args ?? '';
    expect(JSON.parse(cmd)).toStrictEqual(['node', 'dist/server/main.js']);
    const build = JSON.parse(readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8')) as {
      compilerOptions: { outDir: string; rootDir: string };
      include: string[];
    };
    expect([
      build.compilerOptions.outDir,
      build.compilerOptions.rootDir,
      build.include.includes('server'),
    ]).toStrictEqual(['dist', '.', true]);
  });

  it('when the image is built, then the entry is imported once with the compile cache the runtime keeps, and importing it starts nothing', async () => {
    const env = final
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    const cacheDir = /NODE_COMPILE_CACHE=(\S+)/.exec(env)?.[1];
    expect(cacheDir).toBeDefined();
    const warm = final.findIndex(
      (i) =>
        i.keyword === 'RUN' &&
        i.args.includes("import('/app/dist/server/main.js')") &&
        i.args.includes(`chown -R node:node ${cacheDir}`),
    );
    expect(warm).toBeGreaterThan(final.findIndex((i) => i.keyword === 'COPY' && i.args.includes('/app/dist')));
    expect(warm).toBeLessThan(final.findIndex((i) => i.keyword === 'USER'));
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 1)) return; // No compile cache before Node 22.1 (CI runs 24).
    // The same import, on the compiled server, into a folder of our own: it must end by itself
    // (no server left listening) and leave compiled code behind.
    const dir = await mkdtemp(path.join(tmpdir(), 'compile-cache-'));
    try {
      const main = await compiledServerMain();
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(main).href)})`],
        {
          env: { ...process.env, NODE_COMPILE_CACHE: dir, PORT: '0' },
          timeout: 60_000,
          encoding: 'utf8',
        },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(/running at/i);
      expect(readdirSync(dir, { recursive: true }).length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('when the build context is sent, then local data, installs and env files stay out of it', () => {
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['data/', 'node_modules/', '.cache/', '.env', '.git/']) expect(ignored).toContain(entry);
  });

  it('when its health check command runs, then it passes against a running server and fails where none answers', async () => {
    expect(healthcheck?.args).toMatch(/--interval=\d+s .*--timeout=\d+s/);
    expect(await runHealthCheck(Number(new URL(server.url).port))).toBe(0);
    expect(await runHealthCheck(1)).toBe(1);
  });

  const docker = spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
  if (!docker) console.warn('[Dockerfile] no Docker daemon answers here: the image is checked, not built');
  it.skipIf(!docker)(
    'when Docker is available, then the image builds, starts and reports healthy',
    { timeout: 900_000 },
    () => {
      const tag = `chatbot-test:${process.pid}`;
      execFileSync('docker', ['build', '-t', tag, root], { stdio: 'inherit' });
      const id = execFileSync('docker', ['run', '-d', '-e', 'BOT_FUNCTION_KEY=container-test-key-0123', tag], {
        encoding: 'utf8',
      }).trim();
      try {
        let status = '';
        for (let i = 0; i < 60 && status !== 'healthy'; i++) {
          status = execFileSync('docker', ['inspect', '-f', '{{.State.Health.Status}}', id], {
            encoding: 'utf8',
          }).trim();
          if (status !== 'healthy') execFileSync('sleep', ['2']);
        }
        expect(status).toBe('healthy');
        expect(execFileSync('docker', ['exec', id, 'id', '-u'], { encoding: 'utf8' }).trim()).not.toBe('0');
      } finally {
        spawnSync('docker', ['rm', '-f', id], { stdio: 'ignore' });
        spawnSync('docker', ['rmi', tag], { stdio: 'ignore' });
      }
    },
  );
});
