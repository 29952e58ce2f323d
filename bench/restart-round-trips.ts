// What a restart costs the Mongo store per returning user: after a server stops, a new one on
// the same database takes every widget's reconnect (handshake, replay of what it missed, the
// conversation reopened) and its resent message (a turn), and the driver's command monitoring
// counts the commands from the new server's start to the last answer, by command and collection.
// Each widget missed the answer to its last message, as when a kill cut the delivery short.
// The first turn of a user on a fresh process also checks what a crash may have left
// (stores/mongo/unsent-entries.ts), so it costs more than a turn on a warm process
// (bench/store-round-trips.ts). Counts depend on the code, not the machine.
//   npx tsx bench/restart-round-trips.ts   (BENCH_RESTART_USERS, default 50)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';
import { readConfig } from '../server/config.ts';
import { startServer } from '../server/main.ts';
import type { StoreCommand } from '../server/stores/mongo/mongo-store.ts';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';

type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const USERS = Number(process.env.BENCH_RESTART_USERS ?? 50);
const ECHO_BOT = path.join(import.meta.dirname, '..', 'server', 'app', 'test', 'fixtures', 'echo-bot.json');
const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);

const mongo = await startMongoTestServer();
if (mongo.url === null) {
  console.log(`restart round trips: SKIPPED, no Mongo-compatible server (${mongo.reason})`);
  process.exit(0);
}
const dir = await mkdtemp(path.join(tmpdir(), 'bench-restart-'));
const mongoUrl = `${mongo.url.replace(/\/$/, '')}/bench_restart_${process.pid}`;
let counting = false;
const counts = new Map<string, number>();
let total = 0;
let writes = 0;
const start = (port: string) =>
  startServer(
    readConfig({
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      BOT_DEFINITION: ECHO_BOT,
      BOT_FUNCTION_KEY: 'bench-function-key-0123456789abcdef',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      MONGODB_URL: mongoUrl,
      WEBCHAT_RATE_LIMIT: '100000',
    }),
    {
      onStoreCommand: (command: StoreCommand) => {
        if (!counting) return;
        total += 1;
        if (WRITES.has(command.name)) writes += 1;
        const key = `${command.name} ${command.collection ?? ''}`.trim();
        counts.set(key, (counts.get(key) ?? 0) + 1);
      },
    },
  );

interface User {
  socket: ChatSocket;
  session?: { userId: string; token: string };
  lastSeq: number;
  texts: string[];
}
const connect = (url: string, user: User) => {
  const socket: ChatSocket = io(url, {
    auth: user.session ? { ...user.session, lastSeq: user.lastSeq } : {},
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  socket.on('session', (session) => (user.session = session));
  socket.on('entries', (items) => {
    for (const item of items) {
      user.lastSeq = Math.max(user.lastSeq, item.seq);
      if (item.message.type === 'text') user.texts.push(item.message.text);
    }
  });
  user.socket = socket;
};
const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 120_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

try {
  const first = await start('0');
  const users: User[] = Array.from({ length: USERS }, () => ({ lastSeq: 0, texts: [] }) as unknown as User);
  for (const user of users) connect(first.url, user);
  await until(() => users.every((u) => u.texts.includes('Say something.')), 'the first prompts');
  users.forEach((u, i) => u.socket.emit('message', { clientId: `a${i}`, text: `a${i}` }, () => undefined));
  await until(() => users.every((u, i) => u.texts.includes(`You said: a${i}`)), 'the first answers');
  const port = new URL(first.url).port;
  for (const user of users) user.socket.disconnect();
  await first.close();
  // Each widget missed the last answer (a kill cuts deliveries short): its reconnect replays it.
  for (const user of users) user.lastSeq -= 1;

  counting = true;
  const startBegan = process.cpuUsage();
  const second = await start(port);
  const startCpu = process.cpuUsage(startBegan);
  const began = process.cpuUsage();
  const startup = { roundTrips: total, writes };
  total = 0;
  writes = 0;
  counts.clear();
  const acked: number[] = [];
  for (const [i, user] of users.entries()) {
    connect(second.url, user);
    user.socket.on('connect', () =>
      user.socket.emit('message', { clientId: `b${i}`, text: `b${i}` }, () => acked.push(i)),
    );
  }
  await until(
    () => acked.length === USERS && users.every((u, i) => u.texts.includes(`You said: b${i}`)),
    'the answers after the restart',
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cpu = process.cpuUsage(began);
  counting = false;
  const per = (n: number) => Math.round((n / USERS) * 10) / 10;
  console.log(
    `restart: the new server's start-up: ${startup.roundTrips} round trips (${startup.writes} writes), ` +
      `${Math.round((startCpu.user + startCpu.system) / 1000)} ms CPU (its modules already loaded)`,
  );
  console.log(
    `restart round trips per returning user (${USERS} users: reconnect, replay, resent message answered): ${per(total)} (${per(writes)} writes): ` +
      [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([key, n]) => `${key} ${per(n)}`)
        .join(', '),
  );
  console.log(
    `restart: CPU from start-up to the last answer (this process: server and clients): ${Math.round((cpu.user + cpu.system) / 1000)} ms`,
  );
  for (const user of users) user.socket.disconnect();
  await second.close();
} finally {
  await rm(dir, { recursive: true, force: true });
  await mongo.stop();
}
