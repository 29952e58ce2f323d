// A channel turn next to a web-chat turn of the same dialog, side by side in one run, on one server
// (SQLite, job runner included, as production runs it; a child process, bench/webhook-child.ts, so the
// clients' and the stand-in's CPU in this process is not the server's). The dialog is an echo: the user
// says something, the bot answers "You said …." and asks again (two bot messages a turn).
// - web chat: USERS socket.io widgets, each sending ROUNDS messages one after the other;
// - Telegram: USERS chats, each posting ROUNDS signed updates one after the other, each answered when
//   the Bot API stand-in has taken both of the turn's messages (webhook → inbox → turn job → two send
//   jobs → two sendMessage calls).
// Reported for each: server CPU per turn (user + system, from the child's own counters: on a shared
// machine wall time misleads) and the user's wait from sending to the turn's last message, p50 and p99.
// Goal (issue 37): a channel turn costs <= 1.3x a web-chat turn of the same dialog.
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { startTelegramStandIn, type SeenCall } from '../server/channels/telegram/test/telegram-stand-in.ts';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';
import { stealMeter, stealText } from './steal.ts';

const USERS = Number(process.env.BENCH_CHANNEL_TURN_USERS ?? 10);
const ROUNDS = Number(process.env.BENCH_CHANNEL_TURN_ROUNDS ?? 20);
const GOAL_RATIO = 1.3;
const SECRET = 'bench-telegram-secret-0123456789';
const PROMPT = 'Say something.';

/** The prompts each chat has received, and who waits for how many: a turn ends with the prompt again. */
const prompts = new Map<number, number>();
const waiting = new Map<number, { readonly until: number; readonly resolve: () => void }>();
const telegram = await startTelegramStandIn(undefined, (call: SeenCall) => {
  if (call.method !== 'sendMessage' || call.status !== 200 || call.params.text !== PROMPT) return;
  const chatId = call.params.chat_id as number;
  const count = (prompts.get(chatId) ?? 0) + 1;
  prompts.set(chatId, count);
  const waiter = waiting.get(chatId);
  if (waiter && count >= waiter.until) waiter.resolve();
});
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
const proc = fork(new URL('./webhook-child.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: {
    ...process.env,
    BENCH_BOT: bot,
    BENCH_TELEGRAM_TOKEN: telegram.token,
    BENCH_TELEGRAM_SECRET: SECRET,
    BENCH_TELEGRAM_URL: telegram.url,
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const url = await new Promise<string>((resolve) =>
  proc.once('message', (message: { url: string }) => resolve(message.url)),
);
const cpu = () =>
  new Promise<number>((resolve) => {
    proc.once('message', ((message: { cpu: NodeJS.CpuUsage }) =>
      resolve(message.cpu.user + message.cpu.system)) as never);
    proc.send({ cmd: 'cpu' });
  });

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** Runs ROUNDS turns per user (after one unmeasured turn that opens each conversation); CPU per turn and waits. */
async function run(label: string, users: readonly ((round: number) => Promise<void>)[]) {
  await Promise.all(users.map((turn) => turn(-1)));
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
  'web chat turn (socket.io)',
  widgets.map((widget) => widget.turn),
);
for (const { socket } of widgets) socket.disconnect();

let updateId = 0;
const chats = Array.from({ length: USERS }, (_, u) => {
  const chatId = 20_000_000 + u;
  return (round: number) =>
    new Promise<void>((resolve, reject) => {
      // A new chat's first message opens the conversation (a prompt) and is its first answer (another).
      waiting.set(chatId, { until: (prompts.get(chatId) ?? 0) + (round < 0 ? 2 : 1), resolve });
      const n = ++updateId;
      const update = {
        update_id: n,
        message: {
          message_id: n,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: 'private' },
          from: { id: chatId, is_bot: false, first_name: 'B' },
          text: `hello ${round}`,
        },
      };
      fetch(`${url}/api/webhooks/telegram`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
        body: JSON.stringify(update),
      }).then((response) => {
        if (response.status !== 200) reject(new Error(`the webhook answered ${response.status}`));
      }, reject);
    });
});
const channel = await run('Telegram turn (webhook → turn job → sends)', chats);

const ratio = channel.usPerTurn / webChat.usPerTurn;
console.log(
  `channel turn vs web chat: ${ratio.toFixed(2)}x the server CPU, ${(channel.p50 / webChat.p50).toFixed(2)}x the wait at p50; ` +
    `goal (<= ${GOAL_RATIO}x the CPU): ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'}; ` +
    `${telegram.calls.filter((call) => call.status !== 200).length} stand-in refusals`,
);
proc.send({ cmd: 'stop' });
await new Promise((resolve) => proc.once('exit', resolve));
await telegram.close();
await rm(dir, { recursive: true, force: true });
