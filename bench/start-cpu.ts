// What a restart costs before the server takes connections: the compiled server (as production
// runs it, server/test/compiled-server.ts) started again and again on the same Mongo database,
// with the CPU time each process used until it was listening (from /proc: on a shared machine
// CPU time says more than wall time). After a crash every widget waits for this.
//   npx tsx bench/start-cpu.ts   (BENCH_START_RUNS, default 5; SERVER_CHILD_NODE_ARGS='--cpu-prof
//   --cpu-prof-dir=<dir>' profiles each start, and works with any node flag, e.g. a compile cache)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServerChild } from '../server/test/server-child.ts';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);
const ECHO_BOT = path.join(import.meta.dirname, '..', 'server', 'app', 'test', 'fixtures', 'echo-bot.json');

const mongo = await startMongoTestServer();
if (mongo.url === null) {
  console.log(`start CPU: SKIPPED, no Mongo-compatible server (${mongo.reason})`);
  process.exit(0);
}
const dir = await mkdtemp(path.join(tmpdir(), 'bench-start-'));
const env = {
  MONGODB_URL: `${mongo.url.replace(/\/$/, '')}/bench_start_${process.pid}`,
  DATA_DIR: dir,
  BOT_DEFINITION: ECHO_BOT,
  SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
  LOG_LEVEL: 'warn',
};
try {
  // The first start creates the database's indexes; a restart finds them.
  await (await startServerChild(env)).stop();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const began = Date.now();
    const server = await startServerChild(env);
    wall.push(Date.now() - began);
    cpu.push(server.startupCpuMs);
    await server.stop();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `start CPU (${process.version}, Mongo store, ${RUNS} restarts): to listening p50 ${median(cpu)} ms CPU (${cpu.join(', ')}), ` +
      `p50 ${median(wall)} ms wall`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
  await mongo.stop();
}
