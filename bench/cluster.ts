// Cluster mode: message turns with 1 and 3 nodes (msgs/s, turn latency p50/p99, CPU per
// process and per turn), cross-node delivery latency (a trigger on node B reaching a widget on
// node A, next to the same trigger on node A), and a SIGKILL of the node a widget talks to
// through nginx: seconds to the next delivered message, messages lost and duplicated; 100
// widgets on three nodes sending one message at the same moment (answer p50/p99, goal p99 <= 2 s);
// and the store round trips a node in cluster mode makes per turn (bench/store-round-trips.ts).
// Real parts: FerretDB (or MONGODB_URL / mongod), Debian's redis-server and nginx, server
// processes compiled as production runs them (server/test/compiled-server.ts). Figures are printed, never asserted.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';
import { writeBot } from '../server/app/test/every-step-bot.ts';
import { startBalancer } from '../server/cluster/test/balancer.ts';
import { chatClient, type ChatClient } from '../server/cluster/test/chat-client.ts';
import { clusterBot } from '../server/cluster/test/cluster-bot.ts';
import { startRedis } from '../server/cluster/test/redis-process.ts';
import { startServerChild, type ServerChild } from '../server/test/server-child.ts';
import { slowLink } from './cluster/slow-link.ts';
import { measureRoundTrips, roundTripLines } from './store-round-trips.ts';

const USERS = Number(process.env.BENCH_CLUSTER_USERS ?? 30);
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 10);
const DELIVERIES = Number(process.env.BENCH_CLUSTER_DELIVERIES ?? 100);
const BURST = Number(process.env.BENCH_CLUSTER_BURST ?? 100);
/** BENCH_CLUSTER_PARTS=burst,crash…: only those parts (round-trips, turns, burst, cross-node, crash); all by default. */
const PARTS = new Set((process.env.BENCH_CLUSTER_PARTS ?? 'round-trips,turns,burst,cross-node,crash').split(','));
/** BENCH_CLUSTER_STORE_DELAY_MS: every store packet held this long each way (a slower store, the same on every run). */
const STORE_DELAY_MS = Number(process.env.BENCH_CLUSTER_STORE_DELAY_MS ?? 0);
const KEY = 'bench-function-key-0123456789abcdef';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const mongo = await startMongoTestServer();
if (mongo.url === null) {
  console.log(`cluster: SKIPPED, no Mongo-compatible server (${mongo.reason})`);
  process.exit(0);
}
/**
 * BENCH_CLUSTER_MONGO_POOL: each node's most store connections (the driver's maxPoolSize; its
 * default is 100). On FerretDB 1.x it defaults to 15: FerretDB keeps 50 PostgreSQL connections,
 * and with more requests in flight than that it stopped answering anyone, for good (300 widgets
 * at once: every PostgreSQL connection idle for minutes, a new client not even served its ping),
 * so three nodes' pools stay under it. MongoDB itself needs no such bound.
 */
const MONGO_POOL = process.env.BENCH_CLUSTER_MONGO_POOL ?? (mongo.kind === 'ferretdb' ? '15' : undefined);
const redis = await startRedis();
const mongoTarget = new URL(mongo.url);
const link =
  STORE_DELAY_MS > 0
    ? await slowLink({ host: mongoTarget.hostname, port: Number(mongoTarget.port) }, STORE_DELAY_MS)
    : undefined;
const nodesMongoUrl = link ? mongo.url.replace(`:${mongoTarget.port}`, `:${link.port}`) : mongo.url;
const dir = await mkdtemp(path.join(tmpdir(), 'bench-cluster-'));
let databases = 0;
let lastDatabase = '';

/** CPU time (ms) a process has used so far, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function startCluster(count: number, logLevel = 'warn'): Promise<ServerChild[]> {
  const env = {
    BOT_DEFINITION: await writeBot(dir, clusterBot),
    BOT_FUNCTION_KEY: KEY,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
    SECRETS_KEY: 'bench-secrets-key-0123456789abcdefghij',
    MONGODB_URL: `${nodesMongoUrl.replace(/\/$/, '')}/${(lastDatabase = `bench_cluster_${process.pid}_${++databases}`)}${MONGO_POOL ? `?maxPoolSize=${MONGO_POOL}` : ''}`,
    REDIS_URL: redis.url,
    JOB_LEASE_SECONDS: '3',
    LOG_LEVEL: logLevel,
    WEBCHAT_RATE_LIMIT: '100000',
    MANAGEMENT_RATE_LIMIT: '100000',
  };
  const nodes: ServerChild[] = [];
  for (let i = 0; i < count; i++)
    nodes.push(await startServerChild({ ...env, DATA_DIR: await mkdtemp(path.join(dir, 'node-')) }));
  return nodes;
}

async function ready(client: ChatClient): Promise<void> {
  for (let i = 0; i < 500 && !client.texts().includes('Say something.'); i++) await sleep(20);
}

/** Waits until `text` is on the client; resolves with the time it took (ms). */
async function waitFor(client: ChatClient, text: string, started: number, timeoutMs = 30_000): Promise<number> {
  while (!client.texts().includes(text)) {
    if (performance.now() - started > timeoutMs) throw new Error(`no "${text}" within ${timeoutMs} ms`);
    await sleep(1);
  }
  return performance.now() - started;
}

async function turns(count: number): Promise<void> {
  const nodes = await startCluster(count);
  const clients = Array.from({ length: USERS }, (_, u) => chatClient(nodes[u % count]!.url));
  await Promise.all(clients.map(ready));
  const cpuBefore = nodes.map((node) => cpuMs(node.pid));
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, u) => {
      for (let r = 0; r < ROUNDS; r++) {
        const sent = performance.now();
        client.send(`${u}-${r}`);
        latencies.push(await waitFor(client, `Echo: ${u}-${r}`, sent));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = nodes.map((node, i) => cpuMs(node.pid) - cpuBefore[i]!);
  const total = USERS * ROUNDS;
  console.log(
    `cluster turns, ${count} node${count > 1 ? 's' : ''}: ${(total / seconds).toFixed(0)} msgs/s, turn latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
      `CPU per process ${cpu.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}; CPU per turn ${((cpu.reduce((a, b) => a + b, 0) / total) * 1000).toFixed(0)} µs (${USERS} users x ${ROUNDS} messages, ${availableParallelism()} cores)`,
  );
  for (const client of clients) client.close();
  await Promise.all(nodes.map((node) => node.kill()));
}

/**
 * BURST widgets spread over three nodes, connected and idle, then each sends one message at the
 * same moment. A widget with no answer within 60 s is counted, not fatal, and what happened to it
 * is printed: greeted before it sent, connected when it sent, its acks, reconnects and protocol
 * errors, its stored transcript, and its node's log lines.
 */
async function burst(): Promise<void> {
  const nodes = await startCluster(3, 'info');
  const clients = Array.from({ length: BURST }, (_, u) => chatClient(nodes[u % 3]!.url));
  const seen = clients.map((client) => {
    const record = {
      greeted: false,
      connectedAtSend: false,
      connects: 0,
      disconnects: [] as string[],
      errors: [] as string[],
      acks: [] as string[],
    };
    client.socket.on('connect', () => record.connects++);
    client.socket.on('disconnect', (reason) => record.disconnects.push(reason));
    client.socket.on('protocol_error', (error) => record.errors.push(error.code));
    return record;
  });
  await Promise.all(clients.map(ready));
  await sleep(500);
  const cpuBefore = nodes.map((node) => cpuMs(node.pid));
  const started = performance.now();
  const latencies = await Promise.all(
    clients.map((client, u) => {
      const record = seen[u]!;
      record.greeted = client.texts().includes('Say something.');
      record.connectedAtSend = client.socket.connected;
      client.send(`burst ${u}`, (reply) =>
        record.acks.push(`${reply.ok ? 'ok' : reply.code} at ${(performance.now() - started).toFixed(0)} ms`),
      );
      return waitFor(client, `Echo: burst ${u}`, started, 60_000).catch(() => NaN);
    }),
  );
  const cpu = nodes.map((node, i) => cpuMs(node.pid) - cpuBefore[i]!);
  const answered = latencies.filter((ms) => !Number.isNaN(ms));
  const reconnected = seen.filter((record) => record.connects > 1).length;
  console.log(
    `cluster burst, ${BURST} widgets on 3 nodes each sending one message at once: answer p50 ${percentile(answered, 50).toFixed(0)} ms, ` +
      `p99 ${percentile(answered, 99).toFixed(0)} ms (goal p99 <= 2000 ms); no answer within 60 s: ${BURST - answered.length} (goal 0); widgets that reconnected: ${reconnected}; ` +
      `CPU per process ${cpu.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}${MONGO_POOL ? `; store pool ${MONGO_POOL} per node` : ''}${STORE_DELAY_MS > 0 ? `; store delayed ${STORE_DELAY_MS} ms each way` : ''}`,
  );
  const missing = [...latencies.keys()].filter((u) => Number.isNaN(latencies[u]));
  if (missing.length > 0) {
    // Bounded: a store that stopped answering must not stop the report (it is then the likeliest cause).
    const client = new MongoClient(mongo.url!, { serverSelectionTimeoutMS: 5000, socketTimeoutMS: 10_000 });
    const transcript = client
      .db(lastDatabase)
      .collection<{ userId: string; seq: number; from: string; message: string }>('transcript');
    for (const u of missing) {
      const userId = clients[u]!.userId() ?? '';
      console.log(`  no answer: widget ${u} on node ${u % 3}, user ${userId}: ${JSON.stringify(seen[u])}`);
      console.log(`    on the widget: ${JSON.stringify(clients[u]!.texts())}`);
      const stored = await transcript
        .find({ userId })
        .sort({ seq: 1 })
        .toArray()
        .then((docs) => JSON.stringify(docs.map((doc) => `${doc.seq} ${doc.from} ${doc.message}`)))
        .catch((error: unknown) => `the store did not answer (${(error as Error).message})`);
      console.log(`    stored: ${stored}`);
      for (const line of nodes[u % 3]!.output().split('\n'))
        if (userId !== '' && line.includes(userId)) console.log(`    node ${u % 3} log: ${line.slice(0, 500)}`);
      if (stored.startsWith('the store did not answer') && u !== missing.at(-1)) {
        console.log(
          `  (the other ${missing.length - missing.indexOf(u) - 1} widgets with no answer are left out: the store does not answer)`,
        );
        break;
      }
    }
    await client.close(true).catch(() => undefined);
  }
  // Warnings and errors, counted by event, so a lease lost on a stalled node or a failed turn is seen beside the figures.
  for (const [n, node] of nodes.entries()) {
    const events = new Map<string, number>();
    for (const line of node.output().split('\n')) {
      if (!/"level":(40|50|60)/.test(line)) continue;
      const event = /"event":"([^"]+)"/.exec(line)?.[1] ?? /"msg":"([^"]{0,80})/.exec(line)?.[1] ?? line.slice(0, 80);
      events.set(event, (events.get(event) ?? 0) + 1);
    }
    if (events.size > 0)
      console.log(
        `  node ${n} warnings and errors: ${[...events].map(([event, count]) => `${event} x${count}`).join(', ')}`,
      );
  }
  for (const client of clients) client.close();
  // Stopped, not killed: with SERVER_CHILD_NODE_ARGS='--cpu-prof …' each node then writes its profile of the burst.
  await Promise.all(nodes.map((node) => node.stop()));
}

async function crossNode(): Promise<void> {
  const nodes = await startCluster(3);
  const client = chatClient(nodes[0]!.url, { reconnect: false });
  await ready(client);
  const userId = client.userId()!;
  const measure = async (node: ServerChild, n: number) => {
    const sent = performance.now();
    const res = await fetch(`${node.url}/api/trigger/cluster/ping?userId=${userId}`, {
      method: 'POST',
      headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ n }),
    });
    if (res.status !== 202) throw new Error(`trigger answered ${res.status}`);
    return waitFor(client, `Ping ${n}.`, sent);
  };
  const same: number[] = [];
  const cross: number[] = [];
  for (let i = 0; i < DELIVERIES; i++) {
    same.push(await measure(nodes[0]!, 2 * i));
    cross.push(await measure(nodes[1]!, 2 * i + 1));
  }
  console.log(
    `cluster delivery, trigger → widget (${DELIVERIES} each): same node p50 ${percentile(same, 50).toFixed(1)} ms, p99 ${percentile(same, 99).toFixed(1)} ms; ` +
      `other node p50 ${percentile(cross, 50).toFixed(1)} ms, p99 ${percentile(cross, 99).toFixed(1)} ms (the difference is the Redis hop)`,
  );
  client.close();
  await Promise.all(nodes.map((node) => node.kill()));
}

async function crash(): Promise<void> {
  // Connects are logged at info: they say which node the widget is on.
  const nodes = await startCluster(3, 'info');
  const balancer = await startBalancer(nodes.map((node) => Number(new URL(node.url).port)));
  const client = chatClient(balancer.url);
  await ready(client);
  const userId = client.userId()!;
  const home = nodes.find((node) => node.output().includes(`"event":"socket_connect","userId":"${userId}"`));
  if (!home) throw new Error('no node logged the widget connecting');
  let sent = 0;
  let killedAt = 0;
  const sender = (async () => {
    for (; sent < 60; sent++) {
      client.send(`m${sent}`);
      if (sent === 20) {
        // Wait for the echo before the kill, then kill mid-stream.
        await waitFor(client, `Echo: m${sent}`, performance.now());
        killedAt = performance.now();
        await home.kill();
      }
      await sleep(100);
    }
  })();
  // Time to the first echo of a message sent after the kill.
  const firstAfter = async () => {
    for (;;) {
      const texts = client.texts();
      if (texts.some((t) => /^Echo: m(2[1-9]|[3-5]\d)$/.test(t))) return performance.now();
      await sleep(5);
    }
  };
  const recoveredAt = await Promise.race([firstAfter(), sleep(60_000).then(() => NaN)]);
  await sender;
  const end = performance.now() + 60_000;
  while (performance.now() < end && !client.texts().includes('Echo: m59')) await sleep(50);
  await sleep(500);
  const texts = client.texts();
  const lost = Array.from({ length: 60 }, (_, i) => `Echo: m${i}`).filter((echo) => !texts.includes(echo)).length;
  const duplicated =
    texts.filter((t) => t.startsWith('Echo: ')).length - new Set(texts.filter((t) => t.startsWith('Echo: '))).size;
  console.log(
    `cluster SIGKILL of the widget's node (through nginx): next message delivered ${((recoveredAt - killedAt) / 1000).toFixed(2)} s after the kill; ` +
      `lost ${lost} of 60, duplicated ${duplicated} (goal 0 and 0); repeated deliveries the widget dropped by seq: ${client.duplicates}`,
  );
  client.close();
  await balancer.stop();
  await Promise.all(nodes.map((node) => node.kill()));
}

try {
  if (PARTS.has('round-trips')) {
    for (const line of roundTripLines(
      'cluster mode, shared store locks and turn lease',
      await measureRoundTrips(mongo.url, redis.url),
    ))
      console.log(line);
  }
  if (PARTS.has('turns')) {
    await turns(1);
    await turns(3);
  }
  if (PARTS.has('burst')) await burst();
  if (PARTS.has('cross-node')) await crossNode();
  if (PARTS.has('crash')) await crash();
} finally {
  await link?.close();
  await redis.stop();
  await mongo.stop();
  await rm(dir, { recursive: true, force: true });
}
