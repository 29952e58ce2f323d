// What a turn costs the Mongo store, counted with the driver's command monitoring: round
// trips (commands sent) and how many of them write, per message turn of a known user, per
// trigger (accepted, run, delivered) and per timer (fired, run, delivered). The counts depend
// on the code, not the machine, and carry over to a real MongoDB. Used by bench/turn-cpu.ts
// (one node) and bench/cluster.ts (cluster mode: REDIS_URL set, so the store's locks and the
// turn lease are in play). The job runner's polls (a claim query, the outbox sweep) run on a
// timer whether or not turns run, so they are counted apart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol.ts';
import { writeBot } from '../server/app/test/every-step-bot.ts';
import { clusterBot } from '../server/cluster/test/cluster-bot.ts';
import { readConfig } from '../server/config.ts';
import { startServer } from '../server/main.ts';
import type { StoreCommand } from '../server/stores/mongo/mongo-store.ts';

const KEY = 'bench-function-key-0123456789abcdef';
const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);
const N = Number(process.env.BENCH_ROUND_TRIP_TURNS ?? 10);

interface Tally {
  total: number;
  writes: number;
  byCommand: Map<string, number>;
}

export interface TurnCost {
  readonly roundTrips: number;
  readonly writes: number;
  /** e.g. "find users 1, update users 1, insert transcript 1". */
  readonly detail: string;
}

/** A poll of the job runner, not part of any turn: the claim query on jobs and the outbox sweep on users. */
function isPoll(command: StoreCommand): boolean {
  if (command.name !== 'find') return false;
  const filter = (command.command.filter ?? {}) as Record<string, unknown>;
  return (command.collection === 'jobs' && '$or' in filter) || (command.collection === 'users' && 'outboxAt' in filter);
}

/** Round trips per turn of each kind, on a server of its own on `mongoUrl` (with `redisUrl`: cluster mode). */
export async function measureRoundTrips(
  mongoUrl: string,
  redisUrl?: string,
): Promise<Record<'message' | 'trigger' | 'timer', TurnCost>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-round-trips-'));
  const newTally = (): Tally => ({ total: 0, writes: 0, byCommand: new Map() });
  let tally = newTally();
  const per = (n: number) => Math.round((n / N) * 10) / 10;
  const costOf = (t: Tally): { roundTrips: number; writes: number; detail: string } => ({
    roundTrips: per(t.total),
    writes: per(t.writes),
    detail: [...t.byCommand].map(([key, n]) => `${key} ${per(n)}`).join(', '),
  });
  const server = await startServer(
    readConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      BOT_DEFINITION: await writeBot(dir, clusterBot),
      BOT_FUNCTION_KEY: KEY,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      // Cluster mode asks for the studio's secrets key, the same on every node.
      SECRETS_KEY: 'bench-secrets-key-0123456789abcdefghij',
      MONGODB_URL: `${mongoUrl.replace(/\/$/, '')}/bench_round_trips_${process.pid}_${Date.now()}`,
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      WEBCHAT_RATE_LIMIT: '100000',
      MANAGEMENT_RATE_LIMIT: '100000',
    }),
    {
      env: { ...process.env, CLUSTER_BOT_WAIT: '1s' },
      onStoreCommand: (command) => {
        if (isPoll(command)) return;
        tally.total += 1;
        if (WRITES.has(command.name)) tally.writes += 1;
        const key = `${command.name} ${command.collection ?? ''}`.trim();
        tally.byCommand.set(key, (tally.byCommand.get(key) ?? 0) + 1);
      },
    },
  );
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(server.url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  const texts: string[] = [];
  let seen: (() => void) | undefined;
  socket.on('entries', (items) => {
    for (const item of items) if (item.message.type === 'text') texts.push(item.message.text);
    seen?.();
  });
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise<void>((resolve) => (seen = resolve));
  };
  const session = await new Promise<{ userId: string }>((resolve) => socket.once('session', resolve));
  await until(() => texts.includes('Say something.'));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 400));
  const window = async (work: () => Promise<void>): Promise<TurnCost> => {
    await settle();
    tally = newTally();
    await work();
    // The turn's last writes (a job completed) may follow its delivery.
    await settle();
    return costOf(tally);
  };
  const trigger = (dialog: string, body: unknown) =>
    fetch(`${server.url}/api/trigger/cluster/${dialog}?userId=${encodeURIComponent(session.userId)}`, {
      method: 'POST',
      headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    socket.emit('message', { clientId: 'warm-up', text: 'warm up' }, () => undefined);
    await until(() => texts.includes('Echo: warm up'));
    const message = await window(async () => {
      for (let i = 0; i < N; i++) {
        socket.emit('message', { clientId: `m${i}`, text: `m${i}` }, () => undefined);
        await until(() => texts.includes(`Echo: m${i}`));
      }
    });
    const triggered = await window(async () => {
      for (let i = 0; i < N; i++) {
        await trigger('ping', { n: `t${i}` });
        await until(() => texts.includes(`Ping t${i}.`));
      }
    });
    // A wait dialog's trigger (which schedules the timer) and the timer's own turn, counted apart:
    // the timer is due 1 s after its trigger, so each trigger's window closes before it fires.
    const phases = { trigger: newTally(), timer: newTally() };
    await settle();
    for (let i = 0; i < N; i++) {
      const before = texts.filter((t) => t === 'Time is up.').length;
      tally = phases.trigger;
      await trigger('wait', {});
      await settle();
      tally = phases.timer;
      await until(() => texts.filter((t) => t === 'Time is up.').length > before);
      await settle();
    }
    const timer = costOf(phases.timer);
    timer.detail += ` (its trigger: ${costOf(phases.trigger).roundTrips} round trips)`;
    return { message, trigger: triggered, timer };
  } finally {
    socket.disconnect();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The lines the benches print. */
export function roundTripLines(where: string, costs: Record<'message' | 'trigger' | 'timer', TurnCost>): string[] {
  return (['message', 'trigger', 'timer'] as const).map(
    (kind) =>
      `store round trips per ${kind} turn (${where}): ${costs[kind].roundTrips} (${costs[kind].writes} writes): ${costs[kind].detail}`,
  );
}
