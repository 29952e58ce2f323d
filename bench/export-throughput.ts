// Export throughput: rows/s and the server's peak RSS growth for the HTTP export (a JSON
// array streamed from the store cursor), next to a raw read of the same rows from the
// store cursor in the same run. SQLite: 1M userData rows and 1M nlpLog rows
// (BENCH_EXPORT_ROWS). The Mongo-compatible test server (FerretDB) when it can be started,
// scaled down to BENCH_EXPORT_MONGO_ROWS (FerretDB 1.x on PostgreSQL, which is far slower than
// MongoDB; its figures say little about production).
// The server runs in a child process (bench/export-child.ts): the HTTP client here does not
// share its event loop, and RSS is the server's own.
// Goals: >= 100k rows/s, RSS growth <= 64 MB, and the HTTP export (the real route, request id
// and middleware in place) >= 80 % of the raw store cursor's rows/s. The raw read goes row by
// row through the store's own iterator (a parsed record and a cursor per row), as it always did;
// the export reads the same store a batch at a time. On a shared machine compare the server
// CPU of the two lines (the ratio in CPU is printed too) rather than their wall time.
import { fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';
import { stealMeter, stealText } from './steal.ts';
import type { ChildCommand, ChildStart } from './export-child.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const MONGO_ROWS = Number(process.env.BENCH_EXPORT_MONGO_ROWS ?? 1_000);
const KEY = 'bench-function-key-0123456789';
const BOT = path.join(import.meta.dirname, '..', 'server', 'api', 'management', 'test', 'fixtures', 'bot.json');
const child = new URL('./export-child.ts', import.meta.url).pathname;

function line(label: string, rows: number, expected: number, seconds: number, rssMb: number, steal: number | null, cpuSeconds?: number): void {
  const ok = rows === expected ? '' : ` (!! expected ${expected})`;
  const cpu = cpuSeconds === undefined ? '' : `, server CPU ${cpuSeconds.toFixed(2)} s`;
  console.log(
    `  ${label.padEnd(34)} ${rows} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds).toLocaleString('en')} rows/s, server peak RSS +${rssMb.toFixed(1)} MB${cpu}${stealText(steal)}${ok}`,
  );
}

/**
 * Reads the streamed JSON array chunk by chunk, counting records (one a line), never holding the
 * body. Through node:http, as curl or a data pipeline would read it: fetch's web streams cost the
 * client two to three times the CPU, and on a shared 2-core machine the client's CPU is taken from
 * the server's, so it showed as export time.
 */
function httpExport(url: string, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/management/export/${name}`, { headers: { 'x-functions-key': KEY } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`export ${name} answered ${res.statusCode}`));
        return;
      }
      let lines = 0;
      res.on('data', (bytes: Buffer) => {
        for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
      });
      res.on('end', () => resolve(Math.max(0, lines - 2))); // "[\n", records joined by ",\n", then "\n]\n"
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function run(label: string, start: ChildStart): Promise<void> {
  const prof = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  const proc = fork(child, [], { execArgv: ['--import', 'tsx', '--expose-gc', ...prof], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(command: ChildCommand | ChildStart, key: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (reply: Record<string, unknown>) => {
        if (key in reply) {
          proc.off('message', onMessage);
          resolve(reply as T);
        }
      };
      proc.on('message', onMessage);
      proc.send(command);
    });
  try {
    const ready = await ask<{ url: string; seededSeconds: number }>(start, 'ready');
    console.log(`export (${label}, ${start.rows.toLocaleString('en')} userData + ${start.rows.toLocaleString('en')} nlpLog rows; seeded in ${ready.seededSeconds.toFixed(1)} s)`);
    for (const [name, what] of [['userData', 'users'], ['nlpLog', 'logs']] as const) {
      let steal = stealMeter();
      const { raw } = await ask<{ raw: { rows: number; seconds: number; rssMb: number; cpuSeconds: number } }>({ cmd: 'raw', what }, 'raw');
      line(`${name} raw store cursor`, raw.rows, start.rows, raw.seconds, raw.rssMb, steal(), raw.cpuSeconds);
      await ask({ cmd: 'rss-start' }, 'sampling');
      steal = stealMeter();
      const started = performance.now();
      const clientCpu = process.cpuUsage();
      const rows = await httpExport(ready.url, name);
      const seconds = (performance.now() - started) / 1000;
      const client = process.cpuUsage(clientCpu);
      const { rssMb, cpuSeconds } = await ask<{ rssMb: number; cpuSeconds: number }>({ cmd: 'rss-stop' }, 'rssMb');
      line(`${name} HTTP export (JSON)`, rows, start.rows, seconds, rssMb, steal(), cpuSeconds);
      if (rows > 0) {
        const share = (raw.seconds / seconds) * 100;
        console.log(`  ${name} HTTP export = ${share.toFixed(0)} % of the raw cursor's rows/s (${(raw.cpuSeconds / cpuSeconds * 100).toFixed(0)} % by server CPU; goal >= 80 %; the client reading it used ${((client.user + client.system) / 1e6).toFixed(2)} s CPU)`);
      }
    }
  } finally {
    proc.send({ cmd: 'stop' } satisfies ChildCommand);
    await new Promise((resolve) => proc.once('exit', resolve));
  }
}

const common = { BOT_FUNCTION_KEY: KEY, BOT_DEFINITION: BOT };
await run('SQLite', { env: common, rows: ROWS, seedUsersDirectly: true });

const mongo = await startMongoTestServer();
if (mongo.url === null) {
  console.log(`export (Mongo-compatible): skipped, ${mongo.reason}`);
} else {
  try {
    const url = `${mongo.url.replace(/\/$/, '')}/bench_export_${process.pid}`;
    await run(`Mongo-compatible: ${mongo.description}, scaled down`, { env: { ...common, MONGODB_URL: url }, rows: MONGO_ROWS, seedUsersDirectly: false });
  } finally {
    await mongo.stop();
  }
}
