// Server CPU per message turn: the real chatbot (engine + SQLite, state persisted every turn) against
// two references, side by side in one run, with 100 and 1000 concurrent socket.io users: a raw socket.io
// echo server (commits nothing), and the durable echo, the same echo that commits each message row to the
// product's SQLite store (its pragmas, its binding) before it acks and echoes: in the store's group commit,
// as the product commits turns, and with one transaction per message, both printed. Then the
// same turns over the generic bot REST channel, next to the web chat's. Each server runs in its own child
// process and reports process.cpuUsage() over IPC, so the clients' CPU (this process) is not counted.
// Goals: a web-chat turn <= 1.3x the durable echo at both sizes; the REST channel <= 1.2x the web chat.
// The goal is printed against both durable echoes: the group-committed one is the stricter reference.
// The chatbot runs compiled (dist/server, rebuilt first when older than the sources) on the node that runs
// this file; BENCH_SOURCE=1 runs it under tsx.
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';
import { measureRoundTrips, roundTripLines } from './store-round-trips.ts';
import { child, childArgs, ensureCompiledServer, measure, request, type TurnCpu } from './turn-cpu-measure.ts';

const ROUNDS: Record<number, number> = {
  100: Number(process.env.BENCH_ROUNDS_100 ?? 30),
  1000: Number(process.env.BENCH_ROUNDS_1000 ?? 6),
};

/**
 * The same turns over the generic bot REST channel: each user POSTs its messages one after
 * another and reads the bot's reply from the answer (HTTP keep-alive, as a channel's server would).
 */
async function measureRest(users: number, rounds: number): Promise<TurnCpu> {
  const { args, execArgv } = childArgs('rest');
  const proc = fork(child, args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await request<string>(proc, null, 'url');
  const post = async (user: number, clientId: string, text: string, retries = 0): Promise<void> => {
    const response = await fetch(`${url}/api/channels/bench/users/u${user}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-channel-key': 'bench-channel-key-0123456789abcdef' },
      body: JSON.stringify({ type: 'text', clientId, text }),
    }).catch((error: unknown) => {
      // On a loaded machine a kept-alive socket can be closed by the server as it is reused;
      // a channel resends, and the clientId keeps the resend from running the turn twice.
      // Under heavy load from other work this can happen more than once in a row: a few resends.
      if (
        retries >= 5 ||
        !['UND_ERR_SOCKET', 'ECONNRESET'].includes(String((error as { cause?: { code?: string } }).cause?.code))
      )
        throw error;
      return undefined;
    });
    if (!response) return post(user, clientId, text, retries + 1);
    const answer = (await response.json()) as { messages?: unknown[] };
    if (response.status !== 200 || !answer.messages?.length)
      throw new Error(`the REST channel answered ${response.status} without a reply`);
  };
  // First contact runs the start dialog: not part of the measured turns.
  await Promise.all(Array.from({ length: users }, (_, u) => post(u, `u${u}-hello`, 'hello')));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = await request<NodeJS.CpuUsage>(proc, { cmd: 'cpu' }, 'cpu');
  const started = performance.now();
  await Promise.all(
    Array.from({ length: users }, async (_, u) => {
      for (let r = 0; r < rounds; r++) await post(u, `u${u}r${r}`, `hello ${r}`);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await request<NodeJS.CpuUsage>(proc, { cmd: 'cpu' }, 'cpu');
  proc.send({ cmd: 'stop' });
  await new Promise((resolve) => proc.once('exit', resolve));
  const turns = users * rounds;
  const userUs = (after.user - before.user) / turns;
  const systemUs = (after.system - before.system) / turns;
  return { usPerTurn: userUs + systemUs, userUs, systemUs, turnsPerSecond: turns / seconds };
}

/** This machine is shared and small: each figure is the best (lowest CPU) of a few alternating runs. */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 2);
const best = (a: TurnCpu | undefined, b: TurnCpu) => (a && a.usPerTurn <= b.usPerTurn ? a : b);
const notMeasured: TurnCpu = {
  usPerTurn: Number.NaN,
  userUs: Number.NaN,
  systemUs: Number.NaN,
  turnsPerSecond: Number.NaN,
};
/** The goals (issue: production-path decisions): the web chat against the durable echo, REST against the web chat. */
const WEBCHAT_GOAL = 1.3;
const REST_GOAL = 1.2;
const verdict = (ratio: number, goal: number) =>
  `${ratio.toFixed(2)}x (goal <= ${goal}x: ${ratio <= goal ? 'met' : 'NOT met'})`;
const cpuText = (cpu: TurnCpu, unit: string) =>
  `${cpu.usPerTurn.toFixed(0)} µs/${unit} (user ${cpu.userUs.toFixed(0)} + kernel ${cpu.systemUs.toFixed(0)}; ${Math.round(cpu.turnsPerSecond)} ${unit}s/s)`;
/** The machine's 1-minute load average: the figures are read against it on a shared machine. */
const load = () => (loadavg()[0] ?? 0).toFixed(1);

console.log(`turn CPU: ${ensureCompiledServer()}, Node ${process.version}`);
const summary: string[] = [];
// BENCH_USERS=100: one size only, while iterating.
for (const users of (process.env.BENCH_USERS ?? '100,1000').split(',').map(Number)) {
  const rounds = ROUNDS[users]!;
  let echo: TurnCpu | undefined;
  let durable: TurnCpu | undefined;
  let durableEach: TurnCpu | undefined;
  let bot: TurnCpu | undefined;
  let rest: TurnCpu | undefined;
  const loads = [load()];
  for (let i = 0; i < REPEATS; i++) {
    echo = best(echo, await measure('echo', users, rounds));
    durable = best(durable, await measure('durable-echo', users, rounds));
    durableEach = best(durableEach, await measure('durable-echo-each', users, rounds));
    bot = best(bot, await measure('chatbot', users, rounds));
    // BENCH_WEBCHAT_ONLY=1: the web chat against the echoes alone, while iterating.
    rest = process.env.BENCH_WEBCHAT_ONLY === '1' ? notMeasured : best(rest, await measureRest(users, rounds));
    loads.push(load());
  }
  if (!echo || !durable || !durableEach || !bot || !rest) throw new Error('no measurement');
  const ofWebchat =
    process.env.BENCH_WEBCHAT_ONLY === '1'
      ? 'not measured (BENCH_WEBCHAT_ONLY=1)'
      : verdict(rest.usPerTurn / bot.usPerTurn, REST_GOAL);
  console.log(`turn CPU (${users} users x ${rounds} messages, best of ${REPEATS}; load average ${loads.join(' → ')}):`);
  console.log(`  web chat                             ${cpuText(bot, 'turn')}`);
  console.log(`  echo                                 ${cpuText(echo, 'msg')}`);
  console.log(`  durable echo, group commit           ${cpuText(durable, 'msg')}`);
  console.log(`  durable echo, a transaction per msg  ${cpuText(durableEach, 'msg')}`);
  if (process.env.BENCH_WEBCHAT_ONLY !== '1')
    console.log(`  REST channel                         ${cpuText(rest, 'turn')}`);
  summary.push(
    `  ${String(users).padStart(5)} users: web chat / echo ${(bot.usPerTurn / echo.usPerTurn).toFixed(2)}x, ` +
      `web chat / durable echo (group commit) ${verdict(bot.usPerTurn / durable.usPerTurn, WEBCHAT_GOAL)}, ` +
      `web chat / durable echo (a transaction per message) ${verdict(bot.usPerTurn / durableEach.usPerTurn, WEBCHAT_GOAL)}, ` +
      `REST / web chat ${ofWebchat}; load average ${loads.join(' → ')}`,
  );
}
console.log(`turn CPU ratios (server CPU per turn, one run):\n${summary.join('\n')}`);

// What a turn costs the Mongo store on one node (round trips, writes): machine-independent figures.
const mongo =
  process.env.BENCH_WEBCHAT_ONLY === '1'
    ? { url: null, reason: 'BENCH_WEBCHAT_ONLY=1', stop: async () => undefined, description: '' }
    : await startMongoTestServer();
if (mongo.url === null) console.log(`store round trips: SKIPPED, no Mongo-compatible server (${mongo.reason})`);
else {
  try {
    for (const line of roundTripLines(
      `one node, ${mongo.description.split(' at ')[0]}`,
      await measureRoundTrips(mongo.url),
    ))
      console.log(line);
  } finally {
    await mongo.stop();
  }
}
