// Message round trips through the real server on the embedded store: N socket.io
// users each send M messages, one at a time, and wait for the bot's answer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';
import { readConfig } from '../server/config.ts';
import { startServer } from '../server/main.ts';

const USERS = Number(process.env.BENCH_USERS ?? 50);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);
const dir = await mkdtemp(path.join(tmpdir(), 'bench-'));
const server = await startServer(readConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', BOT_FUNCTION_KEY: 'bench-function-key-0123456789' }));

const latencies: number[] = [];
async function user(): Promise<void> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(server.url, { transports: ['websocket'], forceNew: true, reconnection: false });
  let waiting: (() => void) | undefined;
  let greeted!: () => void;
  const ready = new Promise<void>((resolve) => (greeted = resolve));
  socket.on('entries', (items) => {
    if (items.some((i) => i.from === 'bot' && i.seq >= 2)) greeted();
    if (items.some((i) => i.from === 'bot')) waiting?.();
  });
  await ready;
  for (let m = 0; m < MESSAGES; m++) {
    const answered = new Promise<void>((resolve) => (waiting = resolve));
    const started = performance.now();
    socket.emit('message', { clientId: `m${m}`, text: `hello ${m}` }, () => undefined);
    await answered;
    latencies.push(performance.now() - started);
  }
  socket.disconnect();
}

const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: USERS }, user));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2);
console.log(
  `round trip (SQLite, ${USERS} users x ${MESSAGES} messages): ${Math.round(latencies.length / seconds)} turns/s, ` +
    `p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, ${Math.round((cpu.user + cpu.system) / latencies.length)} µs CPU per turn (server and clients in one process)`,
);
await server.close();
await rm(dir, { recursive: true, force: true });
