// Trigger throughput: autocannon against the short trigger form on the embedded SQLite
// store, a different user per request. Each 202 means the trigger is durably stored;
// the job runner runs the dialogs meanwhile in the same process, as in production.
// Goals: >= 3k triggers/s, p99 <= 20 ms.
import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readConfig } from '../server/config.ts';
import { startServer } from '../server/main.ts';

const KEY = 'bench-function-key-0123456789';
const BOT = path.join(import.meta.dirname, '..', 'server', 'api', 'management', 'test', 'fixtures', 'bot.json');
const SECONDS = Number(process.env.BENCH_TRIGGER_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_TRIGGER_CONNECTIONS ?? 20);

const dir = await mkdtemp(path.join(tmpdir(), 'bench-trigger-'));
const server = await startServer(
  readConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', BOT_FUNCTION_KEY: KEY, BOT_DEFINITION: BOT, MANAGEMENT_RATE_LIMIT: '100000000' }),
);
const result = await autocannon({
  url: server.url,
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
const accepted = result['2xx'];
console.log(
  `trigger (SQLite, ${CONNECTIONS} connections, ${SECONDS} s): ${Math.round(accepted / SECONDS).toLocaleString('en')} triggers/s accepted (202), ` +
    `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
);
await server.close();
await rm(dir, { recursive: true, force: true });
