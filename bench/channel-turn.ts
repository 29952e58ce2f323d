// Issue 37's two channel goals, side by side in one run on one server (SQLite, job runner included, as
// production runs it; a child process, bench/webhook-child.ts, so the clients' CPU is not the server's;
// the Bot API stand-in in a process of its own, bench/telegram-stand-in-child.ts).
// 1. A channel turn next to a web-chat turn of the same dialog. The dialog is an echo: the user says
//    something, the bot answers "You said …." and asks again (two bot messages a turn).
//    - web chat (the reference): USERS socket.io widgets, each sending ROUNDS messages one after the other;
//    - Telegram: USERS chats, each posting ROUNDS updates one after the other, each answered when the
//      stand-in has taken the turn's prompt (webhook → inbox → turn job → send job → two sendMessage calls).
//    Reported for each: server CPU per turn (user + system, from the child's own counters: on a shared
//    machine wall time misleads) and the user's wait from sending to the turn's last message, p50 and p99.
//    Goal: a channel turn costs <= 1.3x a web-chat turn of the same dialog.
// 2. Webhooks acknowledged at RATE/s (default 500) for SECONDS, a new chat's /start each (autocannon's
//    overallRate, latencies corrected for coordinated omission), while their turns run and their answers go
//    to the stand-in. Goal: p99 <= 20 ms at 500/s on one node (SQLite).
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';
import { stealMeter, stealText } from './steal.ts';

const USERS = Number(process.env.BENCH_CHANNEL_TURN_USERS ?? 10);
const ROUNDS = Number(process.env.BENCH_CHANNEL_TURN_ROUNDS ?? 50);
const RATE = Number(process.env.BENCH_CHANNEL_TURN_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_CHANNEL_TURN_SECONDS ?? 10);
const GOAL_RATIO = 1.3;
const GOAL_P99_MS = 20;
const SECRET = 'bench-telegram-secret-0123456789';
const PROMPT = 'Say something.';

/** Forks a bench child and resolves with the first message it sends that has `key`. */
function child(file: string, env: Record<string, string>) {
  const proc: ChildProcess = fork(new URL(file, import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
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

/** The prompts each chat has received, and who waits for how many: a turn ends with the prompt again. */
const prompts = new Map<number, number>();
const waiting = new Map<number, { readonly until: number; readonly resolve: () => void }>();
const vendor = child('./telegram-stand-in-child.ts', { BENCH_STAND_IN_WATCH: PROMPT });
vendor.proc.on('message', (message: { said?: number }) => {
  if (message.said === undefined) return;
  const count = (prompts.get(message.said) ?? 0) + 1;
  prompts.set(message.said, count);
  const waiter = waiting.get(message.said);
  if (waiter && count >= waiter.until) waiter.resolve();
});
const { standIn: telegram } = await vendor.ask<{ standIn: { url: string; token: string } }>(null, 'standIn');
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
const server = child('./webhook-child.ts', {
  BENCH_BOT: bot,
  BENCH_TELEGRAM_TOKEN: telegram.token,
  BENCH_TELEGRAM_SECRET: SECRET,
  BENCH_TELEGRAM_URL: telegram.url,
});
const { url } = await server.ask<{ url: string }>(null, 'url');
const reading = () => server.ask<{ cpu: NodeJS.CpuUsage; pending: number }>({ cmd: 'cpu' }, 'cpu');
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

let updateId = 0;
/** A Telegram update: a chat's text message, with a fresh update_id. */
function update(chatId: number, text: string): string {
  const n = ++updateId;
  return JSON.stringify({
    update_id: n,
    message: {
      message_id: n,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private' },
      from: { id: chatId, is_bot: false, first_name: 'B' },
      text,
    },
  });
}
const headers = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET };
const chats = Array.from({ length: USERS }, (_, u) => {
  const chatId = 20_000_000 + u;
  return (round: number) =>
    new Promise<void>((resolve, reject) => {
      // A new chat's first message opens the conversation (a prompt) and is its first answer (another).
      waiting.set(chatId, { until: (prompts.get(chatId) ?? 0) + (round === -1 ? 2 : 1), resolve });
      fetch(`${url}/api/webhooks/telegram`, { method: 'POST', headers, body: update(chatId, `hello ${round}`) }).then(
        (response) => {
          if (response.status !== 200) reject(new Error(`the webhook answered ${response.status}`));
        },
        reject,
      );
    });
});
const channel = await run('Telegram turn (webhook → turn job → send job)', chats);
const ratio = channel.usPerTurn / webChat.usPerTurn;

// Webhooks at RATE/s, each a new chat's /start: acknowledged while the turns before them run.
let newChat = 30_000_000;
const before = await reading();
const steal = stealMeter();
const acks = await autocannon({
  url: `${url}/api/webhooks/telegram`,
  connections: 20,
  duration: SECONDS,
  overallRate: RATE,
  requests: [
    {
      method: 'POST',
      headers,
      setupRequest: (request) => ({ ...request, body: update(++newChat, '/start') }),
    },
  ],
});
const after = await reading();
const cores = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1e6 / SECONDS;
console.log(
  `Telegram webhooks at ${RATE}/s (new chats' /start, SQLite, 20 connections, ${SECONDS} s, overallRate, coordinated omission corrected): ` +
    `${Math.round(acks['2xx'] / SECONDS)}/s acknowledged, p50 ${acks.latency.p50} ms, p99 ${acks.latency.p99} ms, non-2xx ${acks.non2xx}, errors ${acks.errors}; ` +
    `server CPU ${cores.toFixed(2)} cores, ${after.pending} turn and send jobs still pending at the end${stealText(steal())}`,
);
const acked = acks.latency.p99 <= GOAL_P99_MS && acks['2xx'] >= RATE * SECONDS * 0.98;
const { refused } = await vendor.ask<{ refused: number }>({ cmd: 'sends' }, 'refused');
console.log(
  `channel goals, one run: turn CPU ${ratio.toFixed(2)}x the web chat's (goal <= ${GOAL_RATIO}x: ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'}; ` +
    `wait at p50 ${(channel.p50 / webChat.p50).toFixed(2)}x); webhook ack p99 ${acks.latency.p99} ms at ${RATE}/s ` +
    `(goal <= ${GOAL_P99_MS} ms: ${acked ? 'met' : 'MISSED'}); ${refused} stand-in refusals`,
);
server.proc.send({ cmd: 'stop' });
vendor.proc.send({ cmd: 'stop' });
await Promise.all([
  new Promise((resolve) => server.proc.once('exit', resolve)),
  new Promise((resolve) => vendor.proc.once('exit', resolve)),
]);
await rm(dir, { recursive: true, force: true });
