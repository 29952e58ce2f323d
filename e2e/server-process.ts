import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly output: () => string;
  /** Kills the process the hard way (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts the built server (`npm start` without the build) as its own process on the embedded store. */
export async function startServerProcess(
  env: Record<string, string> = {},
  dataDir?: string,
  fixedPort?: number,
): Promise<ServerProcess> {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'chatbot-e2e-')));
  // A restart after a crash reuses the port, so the widget's reconnection finds it again.
  const port = fixedPort ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, MONGODB_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      if (output.includes('Chatbot is running at')) {
        clearTimeout(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearTimeout(timer);
        reject(new Error(`server exited with ${child.exitCode}:\n${output}`));
      } else setTimeout(check, 25);
    };
    check();
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    port,
    dataDir: dir,
    output: () => output,
    kill: () => end('SIGKILL'),
    async stop() {
      await end('SIGTERM');
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
