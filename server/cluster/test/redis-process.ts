import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

export interface RedisProcess {
  readonly url: string;
  /** SIGKILL, as a crash would; every counter is gone (no persistence). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Debian's redis-server on a free loopback port, without persistence, as the tests need it. */
export async function startRedis(): Promise<RedisProcess> {
  if (!existsSync(REDIS_SERVER))
    throw new Error(`redis-server is not installed at ${REDIS_SERVER}; run \`npm run provision\`.`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      started.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('exit', () => reject(new Error(`redis-server exited:\n${output}`)));
    });
  };
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill: () => end('SIGKILL'), restart: start, stop: () => end('SIGTERM') };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
