import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { projectRoot } from '../paths.ts';
import { compiledServerMain } from './compiled-server.ts';

export interface ServerChild {
  readonly url: string;
  /** The process id, for reading its CPU time (benchmarks). */
  readonly pid: number;
  /** CPU time (ms, user + system) the process used from its start until it was listening; NaN where /proc is missing. */
  readonly startupCpuMs: number;
  /** CPU time (ms) the process used so far; NaN once it has exited or where /proc is missing. */
  cpuMs(): number;
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
 * Runs the server as production does, compiled (`node …/server/main.js`, see
 * compiled-server.ts), as a process of its own on a free loopback port, so a test
 * can kill it outright and start it again on the same data, as an operator's
 * restart would. SERVER_CHILD_FROM_SOURCE=1 runs `server/main.ts` through tsx
 * instead (the sources' own stack traces, or to compare the two).
 */
export async function startServerChild(env: Record<string, string>): Promise<ServerChild> {
  // SERVER_CHILD_NODE_ARGS: extra Node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=<dir>` to profile a load run.
  const nodeArgs = (process.env.SERVER_CHILD_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const entry =
    process.env.SERVER_CHILD_FROM_SOURCE === '1' ? ['--import', 'tsx', 'server/main.ts'] : [await compiledServerMain()];
  // SERVER_CHILD_NODE: another Node binary for the server (the test keeps its own), e.g. the Node 24 the image ships.
  const node = process.env.SERVER_CHILD_NODE || process.execPath;
  const child = spawn(node, [...nodeArgs, ...entry], {
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
  const startupCpuMs = cpuMsOf(child.pid ?? 0);
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    pid: child.pid ?? 0,
    startupCpuMs,
    cpuMs: () => cpuMsOf(child.pid ?? 0),
    output: () => output,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    reload: () => void child.kill('SIGHUP'),
  };
}

/** A process's CPU time (ms, user + system) from /proc/<pid>/stat; NaN when it cannot be read. */
function cpuMsOf(pid: number): number {
  try {
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks (100 a second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
