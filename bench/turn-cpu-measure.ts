// The socket.io turn measurement of bench/turn-cpu.ts, shared with bench/insights.ts (which runs it
// with and without the insights bookkeeping). Run alone (by `npm run bench`) it does nothing.
//
// The server is measured as production runs it: compiled (dist/server) on bare node. BENCH_SOURCE=1 runs
// server/*.ts under tsx instead, for iterating on the code without a build (tsx's loader costs a few %).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';

/**
 * chatbot-bare: the real chatbot with the insights bookkeeping off (startServer's insights: false);
 * durable-echo: the echo that commits each message to the product's SQLite store before it answers, in the
 * store's group commit; durable-echo-each: the same with one transaction per message.
 */
export type Mode = 'chatbot' | 'chatbot-bare' | 'echo' | 'durable-echo' | 'durable-echo-each' | 'rest';
type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
export const child = new URL('./turn-cpu-child.mjs', import.meta.url).pathname;
const root = new URL('..', import.meta.url).pathname;

/** true: the children run server/*.ts under tsx (BENCH_SOURCE=1); false: dist/server on bare node. */
export const fromSource = process.env.BENCH_SOURCE === '1';

/** The child's fork options: tsx only for the source path; BENCH_PROF adds a CPU profile of the whole child. */
export function childArgs(mode: Mode, source = fromSource): { args: string[]; execArgv: string[] } {
  const prof = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  return source ? { args: [mode, 'source'], execArgv: ['--import', 'tsx', ...prof] } : { args: [mode], execArgv: prof };
}

/** The server sources (server/, shared/, no tests) that have no compiled file in dist/ at least as new. */
function staleSources(): string[] {
  const stale: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test') walk(file);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        const built = path.join(root, 'dist', file.replace(/\.ts$/, '.js'));
        if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.join(root, file)).mtimeMs) stale.push(file);
      }
    }
  };
  walk('server');
  walk('shared');
  return stale;
}

/**
 * Makes sure dist/server is the compiled form of today's sources before a compiled measurement: a figure
 * of an older build would be silently wrong, so a missing or older build is rebuilt (the server part of
 * `npm run build`, tsc alone: about half a minute) and the bench says so.
 */
export function ensureCompiledServer(source = fromSource): string {
  if (source) return 'server from source under tsx (BENCH_SOURCE=1)';
  const stale = staleSources();
  if (stale.length > 0) {
    console.log(
      `dist/server is missing or older than ${stale.length} source file(s) (e.g. ${stale[0]}): compiling it (tsc -p tsconfig.build.json)`,
    );
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')],
      { stdio: 'inherit' },
    );
  }
  return 'compiled server (dist/server) on bare node, as production runs it';
}

export function request<T>(proc: ChildProcess, message: unknown, key: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: Record<string, unknown>) => {
      if (key in reply) {
        proc.off('message', onMessage);
        resolve(reply[key] as T);
      }
    };
    proc.on('message', onMessage);
    if (message) proc.send(message as never);
  });
}

/** Server CPU per turn (user + system), and its user and system (kernel) parts, in µs. */
export interface TurnCpu {
  usPerTurn: number;
  userUs: number;
  systemUs: number;
  turnsPerSecond: number;
}

export async function measure(mode: Mode, users: number, rounds: number, source = fromSource): Promise<TurnCpu> {
  const { args, execArgv } = childArgs(mode, source);
  const proc = fork(child, args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await request<string>(proc, null, 'url');
  const clients: { socket: Client; answered?: () => void }[] = [];
  await Promise.all(
    Array.from({ length: users }, async () => {
      const socket: Client = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
      const entry: { socket: Client; answered?: () => void } = { socket };
      clients.push(entry);
      const ready = new Promise<void>((resolve) => {
        if (mode === 'echo' || mode.startsWith('durable-echo')) socket.once('connect', () => resolve());
        else socket.once('entries', () => resolve()); // the start dialog's prompt
      });
      socket.on('entries', (items) => {
        if (items.some((i) => i.from === 'bot')) entry.answered?.();
      });
      await ready;
    }),
  );
  // Let the start-up work (greetings, first writes) settle before measuring.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = await request<NodeJS.CpuUsage>(proc, { cmd: 'cpu' }, 'cpu');
  const started = performance.now();
  await Promise.all(
    clients.map(async (entry, u) => {
      for (let r = 0; r < rounds; r++) {
        const answered = new Promise<void>((resolve) => (entry.answered = resolve));
        entry.socket.emit('message', { clientId: `u${u}r${r}`, text: `hello ${r}` }, () => undefined);
        await answered;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await request<NodeJS.CpuUsage>(proc, { cmd: 'cpu' }, 'cpu');
  for (const { socket } of clients) socket.disconnect();
  proc.send({ cmd: 'stop' });
  await new Promise((resolve) => proc.once('exit', resolve));
  const turns = users * rounds;
  const cpu = after.user - before.user + (after.system - before.system);
  return {
    usPerTurn: cpu / turns,
    userUs: (after.user - before.user) / turns,
    systemUs: (after.system - before.system) / turns,
    turnsPerSecond: turns / seconds,
  };
}
