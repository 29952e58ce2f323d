// The socket.io turn measurement of bench/turn-cpu.ts, shared with bench/insights.ts (which runs it
// with and without the insights bookkeeping). Run alone (by `npm run bench`) it does nothing.
import { fork, type ChildProcess } from 'node:child_process';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';

/** chatbot-bare: the real chatbot with the insights bookkeeping off (startServer's insights: false). */
export type Mode = 'chatbot' | 'chatbot-bare' | 'echo' | 'rest';
type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
export const child = new URL('./turn-cpu-child.ts', import.meta.url).pathname;

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

export async function measure(mode: Mode, users: number, rounds: number): Promise<{ usPerTurn: number; turnsPerSecond: number }> {
  const proc = fork(child, [mode], { execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROF] : [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await request<string>(proc, null, 'url');
  const clients: { socket: Client; answered?: () => void }[] = [];
  await Promise.all(
    Array.from({ length: users }, async () => {
      const socket: Client = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
      const entry: { socket: Client; answered?: () => void } = { socket };
      clients.push(entry);
      const ready = new Promise<void>((resolve) => {
        if (mode === 'echo') socket.once('connect', () => resolve());
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
  return { usPerTurn: cpu / turns, turnsPerSecond: turns / seconds };
}
