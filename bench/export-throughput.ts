// Export throughput: rows/s and the server's peak RSS growth for the HTTP export (a JSON
// array streamed from the store cursor), next to a raw read of the same rows from the
// store cursor in the same run. SQLite: 1M userData rows and 1M nlpLog rows
// (BENCH_EXPORT_ROWS). The Mongo-compatible test server (FerretDB) when it can be started,
// scaled down to BENCH_EXPORT_MONGO_ROWS (0 skips it; FerretDB 1.x on PostgreSQL, which is far
// slower than MongoDB; its figures say little about production).
// The server runs in a child process (bench/export-child.ts): the HTTP client here does not
// share its event loop, and RSS is the server's own.
// Goals: >= 100k rows/s, RSS growth <= 64 MB; the export's own work (the HTTP export's server CPU
// per row minus the raw read's) <= 0.6 µs/row, and the HTTP export (the real route, request id and
// middleware in place) >= 75 % of the raw store cursor's rate by server CPU per row. The raw read
// makes the export route's own store calls (the preview users, then the same range read, a batch
// of 1,000 at a time) and nothing after them, so the gap is the export's own work: records, JSON,
// HTTP. The raw read and the export alternate, BENCH_EXPORT_ROUNDS times (5); both goals are read
// from the medians of the rounds, side by side (a neighbour's burst in one round moves a median
// less than a best or a mean). The wall-clock ratio is printed too: on a shared machine it
// measures the neighbours as well.
import { fork } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';
import { stealMeter, stealText } from './steal.ts';
import type { ChildCommand, ChildStart } from './export-child.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const MONGO_ROWS = Number(process.env.BENCH_EXPORT_MONGO_ROWS ?? 1_000);
/** Raw read and export, alternated, this many times each (BENCH_EXPORT_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 5);
const KEY = 'bench-function-key-0123456789';
const BOT = path.join(import.meta.dirname, '..', 'server', 'api', 'management', 'test', 'fixtures', 'bot.json');
const child = new URL('./export-child.ts', import.meta.url).pathname;

interface Leg {
  readonly rows: number;
  readonly seconds: number;
  readonly rssMb: number;
  readonly cpuSeconds: number;
  /** The kernel's share of cpuSeconds: for the export, mostly the loopback socket's writes. */
  readonly sysSeconds: number;
}

const perRow = (leg: Leg) => (leg.rows > 0 ? (leg.cpuSeconds / leg.rows) * 1e6 : NaN);

function line(label: string, leg: Leg, expected: number, steal: number | null): void {
  const ok = leg.rows === expected ? '' : ` (!! expected ${expected})`;
  console.log(
    `  ${label.padEnd(34)} ${leg.rows} rows in ${leg.seconds.toFixed(2)} s = ${Math.round(leg.rows / leg.seconds).toLocaleString('en')} rows/s, ` +
      `server CPU ${leg.cpuSeconds.toFixed(2)} s (kernel ${leg.sysSeconds.toFixed(2)} s) = ${perRow(leg).toFixed(2)} µs/row, server peak RSS +${leg.rssMb.toFixed(1)} MB${stealText(steal)}${ok}`,
  );
}

/** The export's rate as a share of the raw read's, by server CPU per row (medians), and its own work per row. */
const SHARE_GOAL = 75;
const OWN_WORK_GOAL_US = 0.6;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** The machine's 1-minute load average: the figures are read against it on a shared machine. */
const load = () => (loadavg()[0] ?? 0).toFixed(1);

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
  // BENCH_PROF=<dir> (inherited by the child): a CPU profile of each measured leg.
  const proc = fork(child, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
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
    console.log(
      `export (${label}, ${start.rows.toLocaleString('en')} userData + ${start.rows.toLocaleString('en')} nlpLog rows; seeded in ${ready.seededSeconds.toFixed(1)} s)`,
    );
    for (const [name, what] of [
      ['userData', 'users'],
      ['nlpLog', 'logs'],
    ] as const) {
      const raws: Leg[] = [];
      const exports: Leg[] = [];
      let clientSeconds = 0;
      const loads = [load()];
      for (let round = 1; round <= ROUNDS; round++) {
        const of = ROUNDS > 1 ? ` ${round}/${ROUNDS}` : '';
        let steal = stealMeter();
        const { raw } = await ask<{ raw: Leg }>({ cmd: 'raw', what }, 'raw');
        line(`${name} raw store cursor${of}`, raw, start.rows, steal());
        await ask({ cmd: 'rss-start', what }, 'sampling');
        steal = stealMeter();
        const started = performance.now();
        const clientCpu = process.cpuUsage();
        const rows = await httpExport(ready.url, name);
        const seconds = (performance.now() - started) / 1000;
        const client = process.cpuUsage(clientCpu);
        clientSeconds += (client.user + client.system) / 1e6;
        const { rssMb, cpuSeconds, sysSeconds } = await ask<Omit<Leg, 'rows' | 'seconds'>>(
          { cmd: 'rss-stop' },
          'rssMb',
        );
        const exported: Leg = { rows, seconds, rssMb, cpuSeconds, sysSeconds };
        line(`${name} HTTP export (JSON)${of}`, exported, start.rows, steal());
        raws.push(raw);
        exports.push(exported);
        loads.push(load());
      }
      if (exports.every((leg) => leg.rows > 0) && raws.every((leg) => leg.rows > 0)) {
        const rawUs = median(raws.map(perRow));
        const exportUs = median(exports.map(perRow));
        const ownUs = exportUs - rawUs;
        const share = (rawUs / exportUs) * 100;
        const byRate =
          (median(exports.map((leg) => leg.rows / leg.seconds)) / median(raws.map((leg) => leg.rows / leg.seconds))) *
          100;
        console.log(
          `  ${name}, medians of ${ROUNDS} rounds (server CPU per row, raw read ${rawUs.toFixed(2)} µs, HTTP export ${exportUs.toFixed(2)} µs; load average ${loads.join(' → ')}): ` +
            `export's own work ${ownUs.toFixed(2)} µs/row (goal <= ${OWN_WORK_GOAL_US}: ${met(ownUs <= OWN_WORK_GOAL_US)}), ` +
            `export / raw read ${share.toFixed(0)} % (goal >= ${SHARE_GOAL} %: ${met(share >= SHARE_GOAL)}); by wall-clock rows/s ${byRate.toFixed(0)} %`,
        );
        console.log(
          `    (the client reading the exports used ${clientSeconds.toFixed(2)} s CPU, taken from the server's 2 cores on a shared machine)`,
        );
      }
    }
  } finally {
    proc.send({ cmd: 'stop' } satisfies ChildCommand);
    await new Promise((resolve) => proc.once('exit', resolve));
  }
}

const common = { BOT_FUNCTION_KEY: KEY, BOT_DEFINITION: BOT };
await run('SQLite', { env: common, rows: ROWS, seedUsersDirectly: true });

const mongo =
  MONGO_ROWS > 0
    ? await startMongoTestServer()
    : { url: null, reason: 'BENCH_EXPORT_MONGO_ROWS=0', stop: async () => {} };
if (mongo.url === null) {
  console.log(`export (Mongo-compatible): skipped, ${mongo.reason}`);
} else {
  try {
    const url = `${mongo.url.replace(/\/$/, '')}/bench_export_${process.pid}`;
    await run(`Mongo-compatible: ${mongo.description}, scaled down`, {
      env: { ...common, MONGODB_URL: url },
      rows: MONGO_ROWS,
      seedUsersDirectly: false,
    });
  } finally {
    await mongo.stop();
  }
}
