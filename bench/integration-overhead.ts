// Overhead of a synchronous integration step over a raw fetch to the same local server (goal: < 1 ms at p50).
// The step does everything it does in production: templating, ajv input/output checks, auth header,
// the safe client's destination checks, and an integrationLog row written to the embedded SQLite store.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IntegrationRuntime } from '../server/integrations/run-integration.ts';
import { systemClock } from '../server/ports/clock.ts';
import { openSqliteStore } from '../server/stores/sqlite/sqlite-store.ts';

const ROUNDS = 3000;
const events = JSON.stringify(
  Array.from({ length: 10 }, (_, i) => ({
    id: i,
    name: `Event ${i}`,
    date: new Date(Date.UTC(2026, 11, i + 1)).toISOString(),
  })),
);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(events)) });
  res.end(events);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const dir = await mkdtemp(path.join(tmpdir(), 'bench-integration-'));
const store = openSqliteStore({ file: path.join(dir, 'bench.sqlite') });
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const runtime = IntegrationRuntime.create(
  { services: { demo: { baseUrl: `${base}/api`, auth: { type: 'bearer', tokenEnv: 'BENCH_TOKEN' } } } },
  {
    store,
    clock: systemClock,
    logger: quiet,
    env: { BENCH_TOKEN: 'bench-token-0123456789' },
    allowedHosts: ['127.0.0.1'],
  },
);
const step = runtime.prepare({ type: 'listUserEvents', service: 'demo', params: { userId: '{{userId}}' } });
const context = { userId: 'u-bench', variables: {}, userData: {} };

async function measure(label: string, once: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 300; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  console.log(
    `${label.padEnd(34)} p50 ${at(0.5).toFixed(3)} ms  p95 ${at(0.95).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms`,
  );
  return times;
}

const raw = await measure('raw fetch + JSON.parse', async () => {
  const response = await fetch(`${base}/api/users/u-bench/events`, { headers: { authorization: 'Bearer x' } });
  await response.json();
});
const stepTimes = await measure('sync step (listUserEvents)', async () => {
  const result = await runtime.run(step, context);
  if (!result.ok) throw new Error(result.error.message);
});
const p50 = (t: number[]) => t[Math.floor(t.length / 2)]!;
console.log(`integration step overhead over raw fetch: p50 ${(p50(stepTimes) - p50(raw)).toFixed(3)} ms (goal < 1 ms)`);

await runtime.close();
await store.close();
server.close();
await rm(dir, { recursive: true, force: true });
