// Issue 37's and 38's channel goals, side by side in one run on one server (SQLite, job runner included, as
// production runs it; a child process, bench/webhook-child.ts, so the clients' CPU is not the server's; the
// vendors' stand-ins in a process of their own, bench/vendor-stand-ins-child.ts), for every connector this bench
// drives: Telegram, WhatsApp Cloud and Slack (BENCH_CHANNEL_TURN_CONNECTORS names fewer).
// 1. A channel turn next to a web-chat turn of the same dialog. The dialog is an echo: the user says
//    something, the bot answers "You said …." and asks again (two bot messages a turn).
//    - web chat (the reference): USERS socket.io widgets, each sending ROUNDS messages one after the other;
//    - each connector: USERS users, each posting ROUNDS signed webhooks one after the other, each answered when
//      the stand-in has taken the turn's prompt (webhook → inbox and turn job → send job → two vendor calls).
//    - a second reference, the REST protocol (`POST /api/channels/{channel}/users/{user}/messages`, the turn's messages
//      in the response): a channel over HTTP like a connector, without the durable queue and the vendor calls, so the
//      cost of those two shows apart from the cost of HTTP itself;
//    Reported for each: server CPU per turn (user + system, from the child's own counters: on a shared
//    machine wall time misleads) and the user's wait from sending to the turn's last message, p50 and p99.
//    Goal: a channel turn costs <= 1.3x a web-chat turn of the same dialog.
//    - beside them, the durable floor (bench/durable-floor.ts): what the channel guarantees alone add to a turn's
//      store work (the inbound event and the two jobs with their commits and order reads), on the store alone. A
//      channel turn costs at least a web-chat turn plus this, so the line says what ratio the store alone allows.
// 2. Each connector's webhooks acknowledged at RATE/s (default 500) for SECONDS, a new user's first message each
//    (autocannon's overallRate, latencies corrected for coordinated omission), while their turns run and their
//    answers go to the stand-ins. Goal: p99 <= 20 ms at 500/s on one node (SQLite).
// BENCH_LOOP_DELAY=1: the acknowledgement line also gives the server's event-loop delay, busy share and GC pauses.
// BENCH_CPU_PROFILE=<dir>: the server writes a V8 CPU profile of the whole run there (node --cpu-prof).
// BENCH_PHASE_PROFILE=<dir>: one profile per measured turn phase there (web chat, REST, each connector; the profiler adds to that run's CPU figures).
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { directMessage, slackSignature } from '../server/channels/slack/test/slack-requests.ts';
import { metaSignatureHeader, signMetaBody } from '../server/channels/test/vendors/signatures/meta-signature.ts';
import { incomingMessage } from '../server/channels/test/vendors/whatsapp/whatsapp-webhooks.ts';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';
import type { DurableFloor } from './durable-floor.ts';
import { loopText, type LoopReading } from './loop-meter.ts';
import { stealMeter, stealText } from './steal.ts';

const USERS = Number(process.env.BENCH_CHANNEL_TURN_USERS ?? 10);
const ROUNDS = Number(process.env.BENCH_CHANNEL_TURN_ROUNDS ?? 50);
const RATE = Number(process.env.BENCH_CHANNEL_TURN_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_CHANNEL_TURN_SECONDS ?? 10);
const CONNECTORS = (process.env.BENCH_CHANNEL_TURN_CONNECTORS ?? 'telegram,whatsapp,slack').split(',');
const GOAL_RATIO = 1.3;
const GOAL_P99_MS = 20;
const TELEGRAM_SECRET = 'bench-telegram-secret-0123456789';
const WHATSAPP_SECRET = 'bench-whatsapp-app-secret-0123456789';
const SLACK_SECRET = 'benchSigningSecret0123456789abcd';
const PROMPT = 'Say something.';
const REST_KEY = 'bench-rest-channel-key-0123456789';

/** Forks a bench child and resolves with the first message it sends that has `key`. */
function child(file: string, env: Record<string, string>, execArgv: readonly string[] = []) {
  const proc: ChildProcess = fork(new URL(file, import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // A bench that fails part-way takes its server and stand-ins with it, rather than leave them running.
  process.once('exit', () => proc.kill());
  const ask = <T>(message: unknown, key: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (reply: Record<string, unknown>) => {
        if (!(key in reply)) return;
        proc.off('message', onMessage);
        resolve(reply as T);
      };
      proc.on('message', onMessage);
      if (message) proc.send(message as never);
    });
  return { proc, ask };
}

/** The prompts each user (by channel and vendor address) has received, and who waits for how many: a turn ends with the prompt again. */
const prompts = new Map<string, number>();
const waiting = new Map<string, { readonly until: number; readonly resolve: () => void }>();
const vendor = child('./vendor-stand-ins-child.ts', { BENCH_STAND_IN_WATCH: PROMPT });
vendor.proc.on('message', (message: { said?: { channel: string; user: string } }) => {
  if (message.said === undefined) return;
  const key = `${message.said.channel}:${message.said.user}`;
  const count = (prompts.get(key) ?? 0) + 1;
  prompts.set(key, count);
  const waiter = waiting.get(key);
  if (waiter && count >= waiter.until) waiter.resolve();
});
const { standIns } = await vendor.ask<{
  standIns: {
    telegram: { url: string; token: string };
    whatsApp: { url: string; accessToken: string; phoneNumberId: string };
    slack: { url: string; token: string };
  };
}>(null, 'standIns');
const dir = await mkdtemp(path.join(tmpdir(), 'bench-channel-turn-'));
const bot = path.join(dir, 'bot.json');
await writeFile(
  bot,
  JSON.stringify({
    settings: { id: 'bench-echo', name: 'Echo', startDialog: 'home' },
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'echo', type: 'input', prompt: PROMPT, saveTo: { variable: 'said' } },
          { id: 'said', type: 'message', text: 'You said {{said}}.' },
          { id: 'again', type: 'goto', dialog: 'home', step: 'echo' },
        ],
      },
    ],
  }),
);
const on = (connector: string, settings: Record<string, string>) => (CONNECTORS.includes(connector) ? settings : {});
const server = child(
  './webhook-child.ts',
  {
    BENCH_BOT: bot,
    BENCH_REST_KEY: REST_KEY,
    ...on('telegram', {
      BENCH_TELEGRAM_TOKEN: standIns.telegram.token,
      BENCH_TELEGRAM_SECRET: TELEGRAM_SECRET,
      BENCH_TELEGRAM_URL: standIns.telegram.url,
    }),
    ...on('whatsapp', {
      BENCH_WHATSAPP_TOKEN: standIns.whatsApp.accessToken,
      BENCH_WHATSAPP_NUMBER: standIns.whatsApp.phoneNumberId,
      BENCH_WHATSAPP_SECRET: WHATSAPP_SECRET,
      BENCH_WHATSAPP_URL: standIns.whatsApp.url,
    }),
    ...on('slack', {
      BENCH_SLACK_TOKEN: standIns.slack.token,
      BENCH_SLACK_SECRET: SLACK_SECRET,
      BENCH_SLACK_URL: standIns.slack.url,
    }),
  },
  process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [],
);
const { url } = await server.ask<{ url: string }>(null, 'url');
const reading = () => server.ask<{ cpu: NodeJS.CpuUsage; pending: number; loop?: LoopReading }>({ cmd: 'cpu' }, 'cpu');
/** BENCH_PHASE_PROFILE: the server profiles each measured phase on its own (bench/phase-profiler.ts). */
const profile = async (phase: string | undefined) => {
  if (process.env.BENCH_PHASE_PROFILE) await server.ask({ cmd: 'profile', phase: phase?.split(' (')[0] }, 'profiled');
};
const cpu = async () => {
  const { cpu: usage } = await reading();
  return usage.user + usage.system;
};

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/**
 * Runs ROUNDS turns per user, after one unmeasured turn that opens each conversation and ROUNDS unmeasured
 * ones: both paths are measured with their code warmed up (the optimising compiler), not one while it still is.
 */
async function run(label: string, users: readonly ((round: number) => Promise<void>)[]) {
  await Promise.all(users.map((turn) => turn(-1)));
  await Promise.all(
    users.map(async (turn) => {
      for (let round = 0; round < ROUNDS; round++) await turn(-2 - round);
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const waits: number[] = [];
  const steal = stealMeter();
  await profile(label);
  const before = await cpu();
  const started = performance.now();
  await Promise.all(
    users.map(async (turn) => {
      for (let round = 0; round < ROUNDS; round++) {
        const sent = performance.now();
        await turn(round);
        waits.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const usPerTurn = ((await cpu()) - before) / waits.length;
  await profile(undefined);
  waits.sort((a, b) => a - b);
  console.log(
    `${label}: ${waits.length} turns (${users.length} users x ${ROUNDS}), ${Math.round(waits.length / seconds)} turns/s, ` +
      `server CPU ${Math.round(usPerTurn)} µs a turn, wait p50 ${percentile(waits, 50).toFixed(1)} ms, p99 ${percentile(waits, 99).toFixed(1)} ms${stealText(steal())}`,
  );
  return { usPerTurn, p50: percentile(waits, 50) };
}

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const widgets = await Promise.all(
  Array.from({ length: USERS }, async (_, u) => {
    const socket: Client = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    let answered: (() => void) | undefined;
    const opened = new Promise<void>((resolve) => (answered = resolve));
    socket.on('entries', (items) => {
      if (items.some((item) => item.from === 'bot' && (item.message as { text?: string }).text === PROMPT))
        answered?.();
    });
    await opened;
    return {
      socket,
      turn: (round: number) =>
        new Promise<void>((resolve) => {
          answered = resolve;
          socket.emit('message', { clientId: `u${u}r${round}`, text: `hello ${round}` }, (ack) => {
            if ('error' in ack) throw new Error(`the web chat refused a message: ${JSON.stringify(ack)}`);
          });
        }),
    };
  }),
);
const webChat = await run(
  'web chat turn (socket.io, the reference)',
  widgets.map((widget) => widget.turn),
);
for (const { socket } of widgets) socket.disconnect();

const rest = await run(
  'REST channel turn (HTTP, the answer in the response; no queue, no vendor call)',
  Array.from({ length: USERS }, (_, u) => async (round: number) => {
    const response = await fetch(`${url}/api/channels/bench/users/rest${u}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-channel-key': REST_KEY },
      body: JSON.stringify({ type: 'text', clientId: `u${u}r${round}`, text: `hello ${round}` }),
    });
    const answer = (await response.json()) as { complete?: boolean; messages?: { message: { text?: string } }[] };
    if (response.status !== 200 || !answer.complete || !answer.messages?.some((entry) => entry.message.text === PROMPT))
      throw new Error(`the REST channel did not answer the turn: ${response.status} ${JSON.stringify(answer)}`);
  }),
);

// What the channel guarantees alone add to a turn's store work, measured in the server's process (bench/durable-floor.ts).
const { floor } = await server.ask<{ floor: DurableFloor }>({ cmd: 'floor', users: USERS }, 'floor');
const least = (webChat.usPerTurn + floor.floorUs) / webChat.usPerTurn;
console.log(
  `durable floor (the store alone, ${USERS} users at once): a turn's commit as the web chat makes it ${Math.round(floor.webChatCommitUs)} µs, ` +
    `with a connector's inbound event, two jobs and order reads ${Math.round(floor.channelCommitUs)} µs: ${Math.round(floor.floorUs)} µs more a turn, ` +
    `so a channel turn costs at least ${least.toFixed(2)}x a web-chat turn`,
);

/** A webhook as a vendor posts it: a user's text message, signed as the vendor signs it. */
interface Webhook {
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** What the bench needs of a vendor: its name, how it addresses user number `n`, and that user's message as it posts it. */
interface Vendor {
  readonly name: string;
  readonly label: string;
  address(n: number): string;
  webhook(n: number, text: string): Webhook;
}

let updateId = 0;
const vendors = (
  [
    {
      name: 'telegram',
      label: 'Telegram',
      address: (n) => String(20_000_000 + n),
      webhook(n, text) {
        const id = ++updateId;
        const chat = 20_000_000 + n;
        return {
          body: JSON.stringify({
            update_id: id,
            message: {
              message_id: id,
              date: Math.floor(Date.now() / 1000),
              chat: { id: chat, type: 'private' },
              from: { id: chat, is_bot: false, first_name: 'B' },
              text,
            },
          }),
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': TELEGRAM_SECRET },
        };
      },
    },
    {
      name: 'whatsapp',
      label: 'WhatsApp',
      address: (n) => String(16_505_000_000 + n),
      webhook(n, text) {
        const number = {
          wabaId: '419561257915477',
          phoneNumberId: standIns.whatsApp.phoneNumberId,
          displayPhoneNumber: '15550783881',
        };
        const body = JSON.stringify(
          incomingMessage(
            number,
            { waId: String(16_505_000_000 + n), name: 'B' },
            { type: 'text', text: { body: text } },
          ),
        );
        return {
          body,
          headers: { 'content-type': 'application/json', [metaSignatureHeader]: signMetaBody(WHATSAPP_SECRET, body) },
        };
      },
    },
    {
      name: 'slack',
      label: 'Slack',
      address: (n) => `D0BENCH${String(n).padStart(8, '0')}`,
      webhook(n, text) {
        const body = JSON.stringify(directMessage(`D0BENCH${String(n).padStart(8, '0')}`, `U0BENCH${n}`, text));
        const timestamp = String(Math.floor(Date.now() / 1000));
        return {
          body,
          headers: {
            'content-type': 'application/json',
            'x-slack-request-timestamp': timestamp,
            'x-slack-signature': slackSignature(SLACK_SECRET, timestamp, body),
          },
        };
      },
    },
  ] satisfies Vendor[]
).filter((vendor) => CONNECTORS.includes(vendor.name));

const goals: string[] = [];
for (const vendor of vendors) {
  const webhookUrl = `${url}/api/webhooks/${vendor.name}`;
  const users = Array.from({ length: USERS }, (_, u) => {
    const key = `${vendor.name}:${vendor.address(u)}`;
    return (round: number) =>
      new Promise<void>((resolve, reject) => {
        // A new user's first message opens the conversation (a prompt) and is its first answer (another).
        waiting.set(key, { until: (prompts.get(key) ?? 0) + (round === -1 ? 2 : 1), resolve });
        const { body, headers } = vendor.webhook(u, `hello ${round}`);
        fetch(webhookUrl, { method: 'POST', headers, body }).then((response) => {
          if (response.status !== 200) reject(new Error(`the ${vendor.label} webhook answered ${response.status}`));
        }, reject);
      });
  });
  const channel = await run(`${vendor.label} turn (webhook → turn job → send job)`, users);

  // Webhooks at RATE/s, each a new user's first message: acknowledged while the turns before them run.
  let newUser = 1_000_000;
  const before = await reading();
  const steal = stealMeter();
  const acks = await autocannon({
    url: webhookUrl,
    connections: 20,
    duration: SECONDS,
    overallRate: RATE,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, ...vendor.webhook(++newUser, 'hello') }) }],
  });
  const after = await reading();
  const cores = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1e6 / SECONDS;
  console.log(
    `${vendor.label} webhooks at ${RATE}/s (new users' first message, SQLite, 20 connections, ${SECONDS} s, overallRate, coordinated omission corrected): ` +
      `${Math.round(acks['2xx'] / SECONDS)}/s acknowledged, p50 ${acks.latency.p50} ms, p99 ${acks.latency.p99} ms, non-2xx ${acks.non2xx}, errors ${acks.errors}; ` +
      `server CPU ${cores.toFixed(2)} cores, ${after.pending} turn and send jobs still pending at the end${loopText(after.loop)}${stealText(steal())}`,
  );
  const ratio = channel.usPerTurn / webChat.usPerTurn;
  const acked = acks.latency.p99 <= GOAL_P99_MS && acks['2xx'] >= RATE * SECONDS * 0.98;
  goals.push(
    `${vendor.label}: turn CPU ${Math.round(channel.usPerTurn)} µs = ${ratio.toFixed(2)}x the web chat's ${Math.round(webChat.usPerTurn)} µs ` +
      `(goal <= ${GOAL_RATIO}x: ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'}; wait at p50 ${(channel.p50 / webChat.p50).toFixed(2)}x; ` +
      `at least ${least.toFixed(2)}x from the durable floor alone; ` +
      `${(channel.usPerTurn / rest.usPerTurn).toFixed(2)}x the REST channel's ${Math.round(rest.usPerTurn)} µs, itself ${(rest.usPerTurn / webChat.usPerTurn).toFixed(2)}x the web chat's); ` +
      `webhook ack p99 ${acks.latency.p99} ms at ${RATE}/s (goal <= ${GOAL_P99_MS} ms: ${acked ? 'met' : 'MISSED'})`,
  );
  // The acknowledged turns run out before the next connector is measured.
  while ((await reading()).pending > 0) await new Promise((resolve) => setTimeout(resolve, 200));
}
const { refused } = await vendor.ask<{ refused: number }>({ cmd: 'refused' }, 'refused');
console.log(`channel goals, one run (${refused} stand-in refusals):\n  ${goals.join('\n  ')}`);
server.proc.send({ cmd: 'stop' });
vendor.proc.send({ cmd: 'stop' });
await Promise.all([
  new Promise((resolve) => server.proc.once('exit', resolve)),
  new Promise((resolve) => vendor.proc.once('exit', resolve)),
]);
await rm(dir, { recursive: true, force: true });
