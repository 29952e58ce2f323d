// Trigger throughput: autocannon against the short trigger form on the embedded SQLite
// store, a different user per request. Each 202 means the trigger is durably stored; the
// job runner runs the dialogs meanwhile in the server's process, as in production. The
// server runs in a child process (bench/trigger-child.ts) so autocannon's CPU is not the
// server's; its CPU use and how many dialogs it ran are reported too.
//
// Two runs against one server, as latency is only meaningful at a stated rate:
//   capacity: 20 connections as fast as the server answers. Triggers/s accepted, and
//             whether the dialogs kept up (pending at the end).
//   at rate:  autocannon's overallRate at the goal rate (3,000/s), latencies corrected
//             for coordinated omission. p50 and p99 at that rate, and the rate reached.
// Goals: >= 3k triggers/s sustained (dialogs keeping up); p99 <= 20 ms.
// BENCH_TRIGGER_MODE=accept measures accepting alone instead: the job runner is paused
// during the load and then resumed, and the time the backlog takes to drain is reported.
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { stealMeter, stealText } from './steal.ts';

const KEY = 'bench-function-key-0123456789';
const BOT = path.join(import.meta.dirname, '..', 'server', 'api', 'management', 'test', 'fixtures', 'bot.json');
const SECONDS = Number(process.env.BENCH_TRIGGER_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_TRIGGER_CONNECTIONS ?? 20);
const GOAL_RATE = Number(process.env.BENCH_TRIGGER_RATE ?? 3000);
const GOAL_P99_MS = 20;
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
  execArgv: [
    '--import',
    'tsx',
    ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
  ],
  env: { ...process.env, BENCH_KEY: KEY, BENCH_BOT: BOT },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const url = await request<string>(proc, null, 'url');
const reading = () => request<Reading>(proc, { cmd: 'cpu' }, 'cpu');

let run = 0;
async function load(rate?: number) {
  const before = await reading();
  const clientBefore = process.cpuUsage();
  const steal = stealMeter();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    ...(rate ? { overallRate: rate } : {}),
    idReplacement: true,
    requests: [
      {
        method: 'POST',
        // A fresh user per request and per run.
        path: `/api/trigger/mgmt-test/operationSucceeded?userId=bench-${++run}-[<id>]`,
        headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ transactionId: 'T-1' }),
      },
    ],
  });
  const clientCpu = process.cpuUsage(clientBefore);
  const after = await reading();
  const cpu = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1e6 / SECONDS;
  return {
    result,
    perSecond: Math.round(result['2xx'] / SECONDS),
    dialogs: after.done - before.done,
    after,
    line:
      `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}; ` +
      `server CPU ${cpu.toFixed(2)} cores (autocannon ${((clientCpu.user + clientCpu.system) / 1e6 / SECONDS).toFixed(2)})${stealText(steal())}`,
  };
}

const where = `SQLite, ${CONNECTIONS} connections, ${SECONDS} s`;
if (process.env.BENCH_TRIGGER_MODE === 'accept') {
  await request<boolean>(proc, { cmd: 'pause' }, 'paused');
  const capacity = await load();
  const start = performance.now();
  await request<boolean>(proc, { cmd: 'resume' }, 'resumed');
  let now = capacity.after;
  while (now.pending > 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    now = await reading();
  }
  console.log(
    `trigger ACCEPT-ONLY, not the sustained figure (${where}): ${capacity.perSecond.toLocaleString('en')} triggers/s accepted, ${capacity.line}; ` +
      `job runner paused during the load, then ${now.done.toLocaleString('en')} dialogs run in ${((performance.now() - start) / 1000).toFixed(1)} s`,
  );
} else {
  const capacity = await load();
  const kept = capacity.after.pending <= capacity.perSecond / 10;
  console.log(
    `trigger capacity (${where}, as fast as answered): ${capacity.perSecond.toLocaleString('en')} triggers/s accepted, ` +
      `${Math.round(capacity.dialogs / SECONDS).toLocaleString('en')} dialogs/s run, ${capacity.after.pending.toLocaleString('en')} pending at the end ` +
      `(${kept ? 'kept up' : 'did NOT keep up'}); ${capacity.line}`,
  );
  // Let the dialogs of the first run finish, so the second starts from an idle server.
  for (let now = capacity.after; now.pending > 0; now = await reading())
    await new Promise((resolve) => setTimeout(resolve, 100));
  const atRate = await load(GOAL_RATE);
  console.log(
    `trigger at ${GOAL_RATE.toLocaleString('en')}/s (${where}, overallRate, coordinated omission corrected): ${atRate.perSecond.toLocaleString('en')} triggers/s accepted, ` +
      `${atRate.after.pending.toLocaleString('en')} dialogs pending at the end; ${atRate.line}`,
  );
  const met =
    capacity.perSecond >= GOAL_RATE &&
    kept &&
    atRate.perSecond >= GOAL_RATE * 0.98 &&
    atRate.result.latency.p99 <= GOAL_P99_MS;
  console.log(
    `trigger goals (>= ${GOAL_RATE.toLocaleString('en')}/s sustained, p99 <= ${GOAL_P99_MS} ms at that rate): ${met ? 'met' : 'MISSED'}`,
  );
}
proc.send({ cmd: 'stop' });
await new Promise((resolve) => proc.once('exit', resolve));
