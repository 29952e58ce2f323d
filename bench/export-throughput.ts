// Export throughput: rows/s and peak RSS growth of the HTTP export (JSON array streamed
// from the store cursor) next to a raw read of the same rows from the store cursor, in the
// same run. SQLite: 1M userData rows and 1M nlpLog rows (BENCH_EXPORT_ROWS). The
// Mongo-compatible test server (FerretDB) when it can be started, scaled down to
// BENCH_EXPORT_MONGO_ROWS (FerretDB 1.x on SQLite is far slower than MongoDB; its figures
// say little about production). Server and client share one process: RSS covers both.
// Goals: >= 100k rows/s, RSS growth <= 64 MB.
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';
import { readConfig } from '../server/config.ts';
import { startServer, type RunningServer } from '../server/main.ts';
import type { Store } from '../server/ports/store.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const MONGO_ROWS = Number(process.env.BENCH_EXPORT_MONGO_ROWS ?? 1_000);
const KEY = 'bench-function-key-0123456789';
const BOT = path.join(import.meta.dirname, '..', 'server', 'api', 'management', 'test', 'fixtures', 'bot.json');
const T0 = Date.UTC(2026, 0, 1);

/** Peak RSS above the level when measuring began, sampled every 10 ms. */
async function measure(label: string, rowsExpected: number, work: () => Promise<number>): Promise<void> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const rows = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const ok = rows === rowsExpected ? '' : ` (!! expected ${rowsExpected})`;
  console.log(`  ${label.padEnd(34)} ${rows} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds).toLocaleString('en')} rows/s, peak RSS +${((peak - base) / 2 ** 20).toFixed(1)} MB${ok}`);
}

async function rawUsers(store: Store): Promise<number> {
  let n = 0;
  for await (const _row of store.exportUsers({ batchSize: 1000 })) n++;
  return n;
}
async function rawLogs(store: Store): Promise<number> {
  let n = 0;
  for await (const _row of store.readLogs('nlpLog', { batchSize: 1000 })) n++;
  return n;
}

/** Reads the streamed JSON array chunk by chunk, counting records (one a line), never holding the body. */
async function httpExport(server: RunningServer, name: string): Promise<number> {
  const res = await fetch(`${server.url}/api/management/export/${name}`, { headers: { 'x-functions-key': KEY } });
  if (res.status !== 200 || !res.body) throw new Error(`export ${name} answered ${res.status}`);
  let lines = 0;
  for await (const chunk of res.body) {
    const bytes = chunk as Uint8Array;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lines++;
  }
  return Math.max(0, lines - 2); // "[\n", records joined by ",\n", then "\n]\n"
}

async function seedViaStore(store: Store, rows: number): Promise<void> {
  for (let i = 0; i < rows; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - i) }, (_, j) => ({
      userId: `u${i + j}`,
      timestamp: T0 + i + j,
      data: { dialogId: 'greeting', stepId: 'ask', stepType: 'input', query: `unprocessed input ${i + j}`, modelId: null, intent: null, result: null, processed: false },
    }));
    await store.appendLogs('nlpLog', batch);
  }
}

async function seedUsersViaStore(store: Store, rows: number): Promise<void> {
  for (let i = 0; i < rows; i++) {
    const user = await store.ensureUser({ userId: `u${i}`, channelId: 'webchat', userData: { email: `u${i}@example.com`, name: `User ${i}` }, now: T0 + i });
    await store.updateUser(user.userId, user.version, { lastMessageAt: T0 + i }, T0 + i);
  }
}

function seedSqliteUsers(file: string, rows: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    `INSERT INTO users (user_id, channel_id, position, variables, user_data, last_message_at, created_at, updated_at, version, last_seq)
     VALUES (?, 'webchat', NULL, '{}', ?, ?, ?, ?, 1, 0)`,
  );
  const many = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(`u${i}`, JSON.stringify({ email: `u${i}@example.com`, name: `User ${i}`, score: i % 100 }), T0 + i, T0 + i, T0 + i);
  });
  for (let i = 0; i < rows; i += 50_000) many(i, Math.min(rows, i + 50_000));
  db.close();
}

async function run(label: string, env: Record<string, string>, rows: number, seed: (server: RunningServer, dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-export-'));
  const server = await startServer(readConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', BOT_FUNCTION_KEY: KEY, BOT_DEFINITION: BOT, MANAGEMENT_RATE_LIMIT: '100000', ...env }));
  try {
    const seeding = performance.now();
    await seed(server, dir);
    console.log(`export (${label}, ${rows.toLocaleString('en')} userData + ${rows.toLocaleString('en')} nlpLog rows; seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s)`);
    await measure('userData raw store cursor', rows, () => rawUsers(server.store));
    await measure('userData HTTP export (JSON)', rows, () => httpExport(server, 'userData'));
    await measure('nlpLog raw store cursor', rows, () => rawLogs(server.store));
    await measure('nlpLog HTTP export (JSON)', rows, () => httpExport(server, 'nlpLog'));
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await run('SQLite', {}, ROWS, async (server, dir) => {
  seedSqliteUsers(path.join(dir, 'chatbot.sqlite'), ROWS);
  await seedViaStore(server.store, ROWS);
});

const mongo = await startMongoTestServer();
if (mongo.url === null) {
  console.log(`export (Mongo-compatible): skipped, ${mongo.reason}`);
} else {
  try {
    await run(`Mongo-compatible: ${mongo.description}, scaled down`, { MONGODB_URL: `${mongo.url.replace(/\/$/, '')}/bench_export_${process.pid}` }, MONGO_ROWS, async (server) => {
      await seedUsersViaStore(server.store, MONGO_ROWS);
      await seedViaStore(server.store, MONGO_ROWS);
    });
  } finally {
    await mongo.stop();
  }
}
