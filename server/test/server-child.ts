import { spawn } from 'node:child_process';
import { projectRoot } from '../paths.ts';

export interface ServerChild {
  readonly url: string;
  /** The process id, for reading its CPU time (benchmarks). */
  readonly pid: number;
  /** Everything the process wrote so far. */
  output(): string;
  /** Ends the process the hard way (SIGKILL), as a crash or a power cut would. */
  kill(): Promise<void>;
  /** Asks the process to stop cleanly (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends SIGHUP, as an operator does to reload the bot definition. */
  reload(): void;
}

/**
 * Runs the server from source (`server/main.ts` through tsx) as a process of its
 * own on a free loopback port, so a test can kill it outright and start it again
 * on the same data, as an operator's restart would.
 */
export async function startServerChild(env: Record<string, string>): Promise<ServerChild> {
  // SERVER_CHILD_NODE_ARGS: extra Node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=<dir>` to profile a load run.
  const nodeArgs = (process.env.SERVER_CHILD_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: projectRoot(),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', MONGODB_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
    const look = () => {
      const running = /Chatbot is running at (\S+)/.exec(output);
      if (running?.[1]) {
        clearTimeout(timer);
        resolve(running[1]);
      } else if (child.exitCode !== null) {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${child.exitCode}:\n${output}`));
      } else setTimeout(look, 20);
    };
    look();
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, pid: child.pid ?? 0, output: () => output, kill: () => end('SIGKILL'), stop: () => end('SIGTERM'), reload: () => void child.kill('SIGHUP') };
}
