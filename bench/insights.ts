// The studio's insights at size: with INSIGHTS_BENCH_ROWS transcript rows (1,000,000) and
// INSIGHTS_BENCH_USERS users (100,000; one conversation each over the last 30 days, the bench bot
// a 60-step flow) on each store, an analyst asks over HTTP (the real routes, signed in) for:
//   - the dashboard of the last 30 days,
//   - the drop-off of the 60-step bot,
//   - a conversation search by text (a word about 10 conversations hold: the search reads as far
//     as its budget allows) and by a user-data field (one user's e-mail),
// each against the goal of <= 1 s, with the server's peak RSS growth while answering (goal
// <= 64 MB). Each is asked REPEATS times: the first (cold) and the best are printed.
// Then a turn's CPU with and without the insights bookkeeping (bench/turn-cpu-measure.ts, the
// same machinery as bench/turn-cpu.ts; goal: <= 5 % more).
// The server runs in a child process (bench/insights-child.ts), which seeds the data (how: there).
// Smaller sizes while iterating: INSIGHTS_BENCH_ROWS=100000 INSIGHTS_BENCH_USERS=10000; one part only:
// INSIGHTS_BENCH_STORES=sqlite (or mongo, turns; comma-separated).
// The MongoDB-compatible test server is FerretDB 1.x on PostgreSQL unless a mongod or
// MONGODB_URL is found: far slower than MongoDB, and what it could not take in
// INSIGHTS_BENCH_SEED_S seconds is said in the output.
import { fork } from 'node:child_process';
import { startMongoTestServer } from '../scripts/mongo-test-server.ts';
import { invite, setUpOwner } from '../server/studio-server/test/studio-client.ts';
import type { ChildCommand, ChildStart, Seeded } from './insights-child.ts';
import { emailOf, RARE_WORD, rareEvery, STEPS } from './insights-seed.ts';
import { ensureCompiledServer, measure } from './turn-cpu-measure.ts';
import { stealMeter, stealText } from './steal.ts';

const ROWS = Number(process.env.INSIGHTS_BENCH_ROWS ?? 1_000_000);
const USERS = Number(process.env.INSIGHTS_BENCH_USERS ?? 100_000);
const SEED_SECONDS = Number(process.env.INSIGHTS_BENCH_SEED_S ?? 900);
const REPEATS = Number(process.env.INSIGHTS_BENCH_REPEATS ?? 3);
const DAYS = 30;
const child = new URL('./insights-child.ts', import.meta.url).pathname;

interface Timed {
  readonly seconds: number;
  readonly rssMb: number;
  readonly cpuSeconds: number;
  readonly body: Record<string, unknown>;
}

async function run(label: string, start: ChildStart): Promise<void> {
  const proc = fork(child, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(command: ChildCommand | ChildStart, key: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (reply: Record<string, unknown>) => {
        if (key in reply) {
          proc.off('message', onMessage);
          resolve(reply as T);
        }
      };
      proc.on('message', onMessage);
      proc.send(command);
    });
  try {
    const ready = await ask<{ url: string; setupLink: string }>(start, 'ready');
    const owner = await setUpOwner(ready.url, ready.setupLink);
    const analyst = await invite(owner, 'analyst@example.com', 'analyst');
    const version = ((await analyst.get('/studio/api/versions?limit=1')).body as { publishedId: string }).publishedId;
    const plan = { users: USERS, rows: ROWS, now: Date.now(), days: DAYS, version };
    const { seeded } = await ask<{ seeded: Seeded }>({ cmd: 'seed', plan, seedSeconds: SEED_SECONDS }, 'seeded');
    console.log(
      `insights (${label}): ${seeded.users.toLocaleString('en')} users, ${seeded.conversations.toLocaleString('en')} conversations, ` +
        `${seeded.transcriptRows.toLocaleString('en')} transcript rows, seeded in ${seeded.seconds.toFixed(1)} s`,
    );
    if (seeded.stoppedBy) console.log(`  !! seeding stopped early: ${seeded.stoppedBy}`);
    if (seeded.transcriptLeftOut > 0) {
      console.log(
        `  !! the store took only ${seeded.transcriptRows.toLocaleString('en')} of ${ROWS.toLocaleString('en')} transcript rows (seeding time ${SEED_SECONDS} s): the figures below are for what it holds, nothing is extrapolated`,
      );
    }

    const timed = async (url: string): Promise<Timed> => {
      await ask({ cmd: 'rss-start' }, 'sampling');
      const started = performance.now();
      const res = await analyst.get(url);
      const seconds = (performance.now() - started) / 1000;
      const { rssMb, cpuSeconds } = await ask<{ rssMb: number; cpuSeconds: number }>({ cmd: 'rss-stop' }, 'rssMb');
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.text.slice(0, 300)}`);
      return { seconds, rssMb, cpuSeconds, body: res.body as Record<string, unknown> };
    };
    const report = async (what: string, url: string, describe: (body: Record<string, unknown>) => string) => {
      const steal = stealMeter();
      const runs: Timed[] = [];
      for (let i = 0; i < REPEATS; i++) runs.push(await timed(url));
      const first = runs[0]!;
      const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const rss = Math.max(...runs.map((r) => r.rssMb));
      const verdict = first.seconds <= 1 && rss <= 64 ? 'meets' : 'MISSES';
      console.log(
        `  ${what.padEnd(38)} first ${first.seconds.toFixed(3)} s, best of ${REPEATS} ${best.seconds.toFixed(3)} s (server CPU ${best.cpuSeconds.toFixed(3)} s), ` +
          `server peak RSS +${rss.toFixed(1)} MB: ${verdict} the goal (<= 1 s, <= 64 MB)${stealText(steal())}; ${describe(first.body)}`,
      );
    };
    await report(
      'dashboard, 30 days',
      '/studio/api/insights/dashboard',
      (b) => `${(b.totals as { conversations: number }).conversations} conversations counted`,
    );
    await report(`drop-off, ${STEPS}-step bot`, '/studio/api/insights/drop-off', (b) => {
      const steps = b.steps as { reached: number; stopped: number }[];
      return `${steps.length} steps, ${steps.reduce((n, s) => n + s.stopped, 0)} stops`;
    });
    const search = (b: Record<string, unknown>) => {
      const found = (b.conversations as unknown[]).length;
      const read = b.searchedConversations as number | undefined;
      return `${found} found${read !== undefined ? `, stopped at the budget after ${read.toLocaleString('en')} conversations` : ''}`;
    };
    await report(
      `search by text (~1 in ${rareEvery.toLocaleString('en')})`,
      `/studio/api/insights/conversations?text=${RARE_WORD}`,
      search,
    );
    await report('search by text (common word, 1st page)', '/studio/api/insights/conversations?text=pizza', search);
    const who = Math.floor(USERS / 3);
    await report(
      'search by user-data field (one user)',
      `/studio/api/insights/conversations?field=email&value=${encodeURIComponent(emailOf(who))}`,
      search,
    );
    await report(
      'transcript view (one user)',
      `/studio/api/insights/users/${encodeURIComponent(`u${String(who).padStart(6, '0')}`)}`,
      (b) => `${(b.messages as unknown[]).length} messages`,
    );
  } finally {
    proc.send({ cmd: 'stop' } satisfies ChildCommand);
    await new Promise((resolve) => proc.once('exit', resolve));
  }
}

/** Studio sign-in and reads: generous limits, the bench is one analyst asking many times. */
const common = { STUDIO_LOGIN_RATE_LIMIT: '1000' };
/** INSIGHTS_BENCH_STORES: which of sqlite, mongo and turns to run (all by default), for iterating on one. */
const only = new Set((process.env.INSIGHTS_BENCH_STORES ?? 'sqlite,mongo,turns').split(','));
if (only.has('sqlite')) await run('SQLite', { env: common });

const mongo = only.has('mongo')
  ? await startMongoTestServer()
  : { url: null, reason: 'not asked for (INSIGHTS_BENCH_STORES)' };
if (mongo.url === null) console.log(`insights (Mongo-compatible): SKIPPED, ${mongo.reason}`);
else {
  try {
    const url = `${mongo.url.replace(/\/$/, '')}/bench_insights_${process.pid}`;
    await run(`Mongo-compatible: ${mongo.description}`, { env: { ...common, MONGODB_URL: url }, mongoUrl: url });
  } finally {
    await mongo.stop();
  }
}

// A turn's CPU with and without the insights bookkeeping: best (lowest) of alternating runs.
const TURN_USERS = 100;
const TURN_ROUNDS = Number(process.env.BENCH_ROUNDS_100 ?? 30);
const TURN_REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
let bare = Number.POSITIVE_INFINITY;
let kept = Number.POSITIVE_INFINITY;
if (only.has('turns')) console.log(`insights turn CPU: ${ensureCompiledServer()}`);
for (let i = 0; i < (only.has('turns') ? TURN_REPEATS : 0); i++) {
  bare = Math.min(bare, (await measure('chatbot-bare', TURN_USERS, TURN_ROUNDS)).usPerTurn);
  kept = Math.min(kept, (await measure('chatbot', TURN_USERS, TURN_ROUNDS)).usPerTurn);
}
const growth = (kept / bare - 1) * 100;
if (only.has('turns'))
  console.log(
    `turn CPU with the insights bookkeeping (${TURN_USERS} users x ${TURN_ROUNDS} messages, SQLite, best of ${TURN_REPEATS}): ${kept.toFixed(0)} µs/turn, ` +
      `without ${bare.toFixed(0)} µs/turn: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} % (goal <= 5 %)`,
  );
