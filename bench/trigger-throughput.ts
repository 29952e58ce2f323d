// Trigger throughput: autocannon against the short trigger form on the embedded SQLite
// store, a different user per request. Each 202 means the trigger is durably stored;
// the job runner runs the dialogs meanwhile in the server's process, as in production.
// The server runs in a child process (bench/trigger-child.ts) so autocannon's CPU is not
// the server's; its CPU use and how many triggers it ran are reported too.
// Goals: >= 3k triggers/s, p99 <= 20 ms (the sustained figure, dialogs running meanwhile).
// BENCH_TRIGGER_MODE=accept measures accepting alone instead: the job runner is paused
// during the load and then resumed, and the time the backlog takes to drain is reported.
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const KEY = 'bench-function-key-0123456789';
const BOT = path.join(import.meta.dirname, '..', 'server', 'api', 'management', 'test', 'fixtures', 'bot.json');
const SECONDS = Number(process.env.BENCH_TRIGGER_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_TRIGGER_CONNECTIONS ?? 20);
const child = new URL('./trigger-child.ts', import.meta.url).pathname;

interface Reading {
  cpu: NodeJS.CpuUsage;
  done: number;
  pending: number;
}

function request<T>(proc: ChildProcess, message: unknown, key: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: Record<string, unknown>) => {
      if (key in reply) {
        proc.off('message', onMessage);
        resolve((key === 'cpu' ? reply : reply[key]) as T);
      }
    };
    proc.on('message', onMessage);
    if (message) proc.send(message as never);
  });
}

const proc = fork(child, [], {
  execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [])],
  env: { ...process.env, BENCH_KEY: KEY, BENCH_BOT: BOT },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const url = await request<string>(proc, null, 'url');
const ACCEPT_ONLY = process.env.BENCH_TRIGGER_MODE === 'accept';
if (ACCEPT_ONLY) await request<boolean>(proc, { cmd: 'pause' }, 'paused');
const before = await request<Reading>(proc, { cmd: 'cpu' }, 'cpu');
const clientBefore = process.cpuUsage();
const result = await autocannon({
  url,
  connections: CONNECTIONS,
  duration: SECONDS,
  idReplacement: true,
  requests: [
    {
      method: 'POST',
      path: '/api/trigger/mgmt-test/operationSucceeded?userId=bench-[<id>]',
      headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ transactionId: 'T-1' }),
    },
  ],
});
const clientCpu = process.cpuUsage(clientBefore);
const after = await request<Reading>(proc, { cmd: 'cpu' }, 'cpu');
const accepted = result['2xx'];
const cpuSeconds = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1e6;
let drained = '';
if (ACCEPT_ONLY) {
  const start = performance.now();
  await request<boolean>(proc, { cmd: 'resume' }, 'resumed');
  let reading = after;
  while (reading.pending > 0 || reading.done < accepted) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    reading = await request<Reading>(proc, { cmd: 'cpu' }, 'cpu');
  }
  drained = `; job runner paused during the load, then ${reading.done.toLocaleString('en')} dialogs run in ${((performance.now() - start) / 1000).toFixed(1)} s`;
}
console.log(
  `trigger${ACCEPT_ONLY ? ' ACCEPT-ONLY (not the sustained figure)' : ''} (SQLite, ${CONNECTIONS} connections, ${SECONDS} s): ${Math.round(accepted / SECONDS).toLocaleString('en')} triggers/s accepted (202), ` +
    `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}; ` +
    `server CPU ${(cpuSeconds / SECONDS).toFixed(2)} cores (autocannon ${((clientCpu.user + clientCpu.system) / 1e6 / SECONDS).toFixed(2)}), ${after.done.toLocaleString('en')} dialogs run, ${after.pending.toLocaleString('en')} still pending at the end${drained}`,
);
proc.send({ cmd: 'stop' });
await new Promise((resolve) => proc.once('exit', resolve));
