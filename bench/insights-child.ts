// Child process for bench/insights.ts: the real server (its store and the studio's insights
// routes) with the 60-step bench bot, seeded with users, transcripts, conversation summaries and
// day counters (bench/insights-seed.ts), so the HTTP client in the parent shares neither its
// event loop nor its RSS. Run alone (by `npm run bench`, which runs every bench/*.ts) it does nothing.
//
// How it seeds, in the shapes the product writes:
//   - SQLite: users and transcript rows straight into their tables (a second connection to the
//     same file, 50,000 rows a transaction); summaries and counters through the insights store's
//     own `record` (the recorder's write), 5,000 summaries a batch.
//   - MongoDB: users and transcript documents by insertMany (10,000 a call, the store's document
//     shapes); counters through `record`; the summaries straight into their deflated day buckets (`record`
//     writes the user index one summary at a time, which would take FerretDB hours), each bucket
//     document inserted whole, and an insertMany of the user index.
// The transcript goes last, within INSIGHTS_BENCH_SEED_S seconds: what did not fit is said, never assumed.
import { openDatabase } from '../server/stores/sqlite/database.ts';
import { MongoClient, ObjectId } from 'mongodb';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dayOf } from '../server/ports/insights.ts';
import { toJson as mongoJson } from '../server/stores/mongo/mongo-common.ts';
import { transcriptDoc } from '../server/stores/mongo/transcript-doc.ts';
import { OPEN_COLLECTION } from '../server/stores/mongo/mongo-insight-docs.ts';
import { openEntry, openId, type OpenTree } from '../server/stores/mongo/mongo-insight-open.ts';
import {
  CONVERSATIONS_COLLECTION,
  packBucket,
  type BucketEntries,
} from '../server/stores/mongo/mongo-insight-conversations.ts';
import { bucketId, bucketOf, conversationKey } from '../server/stores/mongo/mongo-insights.ts';
import { toJson as sqliteJson } from '../server/stores/sqlite/json.ts';
import { benchBot, CounterSum, seedUsers, type SeedPlan, type SeedUser } from './insights-seed.ts';

export interface ChildStart {
  readonly env: Record<string, string>;
  /** The Mongo database's URL when the store is MongoDB (for the direct inserts). */
  readonly mongoUrl?: string;
}
export type ChildCommand =
  { cmd: 'seed'; plan: SeedPlan; seedSeconds: number } | { cmd: 'rss-start' } | { cmd: 'rss-stop' } | { cmd: 'stop' };
export interface Seeded {
  readonly users: number;
  readonly conversations: number;
  readonly transcriptRows: number;
  readonly seconds: number;
  /** Transcript rows not written because the seeding time ran out (0 when all went in). */
  readonly transcriptLeftOut: number;
  /** Why seeding stopped early (an error of the store, or the time), when it did. */
  readonly stoppedBy?: string;
}

if (process.send) {
  const send = (message: unknown) => process.send!(message);
  const { readConfig } = await import('../server/config.ts');
  const { startServer } = await import('../server/main.ts');

  const start = await new Promise<ChildStart>((resolve) => process.once('message', resolve));
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-insights-'));
  const bot = path.join(dir, 'bot.json');
  await writeFile(bot, JSON.stringify(benchBot()));
  const server = await startServer(
    readConfig({
      PORT: '0',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      BOT_DEFINITION: bot,
      BOT_FUNCTION_KEY: 'bench-function-key-0123456789',
      ...start.env,
    }),
  );
  send({ ready: true, url: server.url, setupLink: server.studio.setupLink });

  let base = 0;
  let peak = 0;
  let cpu = process.cpuUsage();
  let sampler: NodeJS.Timeout | undefined;

  process.on('message', (message: ChildCommand) => {
    void (async () => {
      if (message.cmd === 'seed') {
        const started = performance.now();
        const deadline = started + message.seedSeconds * 1000;
        const seeded = start.mongoUrl
          ? await seedMongo(start.mongoUrl, message.plan, deadline)
          : await seedSqlite(path.join(dir, 'chatbot.sqlite'), message.plan, deadline);
        send({ seeded: { ...seeded, seconds: (performance.now() - started) / 1000 } });
      } else if (message.cmd === 'rss-start') {
        global.gc?.();
        cpu = process.cpuUsage();
        base = process.memoryUsage().rss;
        peak = base;
        sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
        send({ sampling: true });
      } else if (message.cmd === 'rss-stop') {
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        const used = process.cpuUsage(cpu);
        send({ rssMb: (peak - base) / 2 ** 20, cpuSeconds: (used.user + used.system) / 1e6 });
      } else {
        await server.close();
        await rm(dir, { recursive: true, force: true });
        process.exit(0);
      }
    })();
  });

  /** Summaries and counters through the store's own write, in batches. */
  async function recordSummaries(
    users: Iterable<SeedUser>,
    plan: SeedPlan,
    onUser?: (user: SeedUser) => void,
  ): Promise<number> {
    const sum = new CounterSum();
    let batch: SeedUser['summary'][] = [];
    let index = 0;
    for (const user of users) {
      sum.add(user, index++);
      onUser?.(user);
      batch.push(user.summary);
      if (batch.length === 5000) {
        await server.insights.store.record({ counts: [], conversations: batch });
        batch = [];
      }
    }
    await server.insights.store.record({ counts: sum.deltas(plan.version), conversations: batch });
    return index;
  }

  async function seedSqlite(file: string, plan: SeedPlan, deadline: number): Promise<Omit<Seeded, 'seconds'>> {
    const db = openDatabase(file);
    db.pragma('journal_mode = WAL');
    const insertUser = db.prepare(
      `INSERT INTO users (user_id, channel_id, position, variables, user_data, last_message_at, created_at, updated_at, version, last_seq)
       VALUES (?, 'webchat', NULL, '{}', ?, ?, ?, ?, 1, ?)`,
    );
    const insertEntry = db.prepare(
      'INSERT INTO transcript (user_id, seq, sender, client_id, at, message, dialog_id, step_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    let users: SeedUser[] = [];
    let transcriptRows = 0;
    let leftOut = 0;
    const flush = db.transaction((chunk: SeedUser[]) => {
      for (const u of chunk) {
        const last = u.messages.at(-1)?.at ?? u.summary.startedAt;
        insertUser.run(u.userId, sqliteJson(u.userData), last, u.summary.startedAt, last, u.messages.length);
        if (performance.now() > deadline) {
          leftOut += u.messages.length;
          continue;
        }
        for (const m of u.messages)
          insertEntry.run(
            u.userId,
            m.seq,
            m.from,
            m.from === 'user' ? `c${m.seq}` : null,
            m.at,
            sqliteJson(m.message),
            m.dialogId ?? null,
            m.stepId ?? null,
          );
        transcriptRows += u.messages.length;
      }
    });
    const conversations = await recordSummaries(seedUsers(plan), plan, (user) => {
      users.push(user);
      if (users.length === 50_000) {
        flush(users);
        users = [];
      }
    });
    flush(users);
    db.close();
    return { users: plan.users, conversations, transcriptRows, transcriptLeftOut: leftOut };
  }

  /** Transcript documents a call: FerretDB writes them 100 a statement, so larger calls only hold more in memory. */
  const TRANSCRIPT_BATCH = 5_000;

  async function seedMongo(url: string, plan: SeedPlan, deadline: number): Promise<Omit<Seeded, 'seconds'>> {
    const client = await MongoClient.connect(url);
    const db = client.db();
    let users = 0;
    let conversations = 0;
    let transcriptRows = 0;
    let stoppedBy: string | undefined;
    const late = () => performance.now() > deadline;
    const began = performance.now();
    try {
      const sum = new CounterSum();
      let index = 0;
      const buckets = new Map<string, { day: number; c: BucketEntries }>();
      const openLists = new Map<string, { day: number; t: OpenTree }>();
      let userDocs: object[] = [];
      let indexDocs: object[] = [];
      const flushUsers = async () => {
        await db.collection('users').insertMany(userDocs as never[], { ordered: false });
        await db.collection('insight_users').insertMany(indexDocs as never[], { ordered: false });
        users += userDocs.length;
        userDocs = [];
        indexDocs = [];
      };
      for (const user of seedUsers(plan)) {
        sum.add(user, index++);
        const s = user.summary;
        const id = bucketId(dayOf(s.startedAt), bucketOf(s.userId));
        let bucket = buckets.get(id);
        if (!bucket) buckets.set(id, (bucket = { day: dayOf(s.startedAt), c: {} }));
        bucket.c[conversationKey(s)] = s;
        const openKey = openId(dayOf(s.lastAt), bucketOf(s.userId));
        let open = openLists.get(openKey);
        if (!open) openLists.set(openKey, (open = { day: dayOf(s.lastAt), t: {} }));
        open.t[conversationKey(s)] = openEntry(s);
        const last = user.messages.at(-1)?.at ?? s.startedAt;
        userDocs.push({
          _id: user.userId,
          channelId: 'webchat',
          position: null,
          variables: '{}',
          userData: mongoJson(user.userData),
          lastMessageAt: last,
          listedAt: last,
          createdAt: s.startedAt,
          updatedAt: last,
          version: 1,
          lastSeq: user.messages.length,
          lastTrigger: null,
          recent: [],
          order: new ObjectId(),
        });
        indexDocs.push({ _id: user.userId, c: { [conversationKey(s)]: id } });
        if (userDocs.length === 10_000) await flushUsers();
      }
      if (userDocs.length > 0) await flushUsers();
      const usersAt = performance.now();
      await server.insights.store.record({ counts: sum.deltas(plan.version), conversations: [] });
      // The open lists as `record` leaves them: each conversation under the day of its last turn.
      await db
        .collection(OPEN_COLLECTION)
        .insertMany(
          [...openLists].map(([id, { day, t }]) => ({ _id: id as never, kind: 'o', day, t: JSON.stringify(t) })),
        );
      // Each bucket whole, as `record` leaves it (deflated JSON).
      for (const [id, { day, c }] of buckets) {
        if (late()) throw new Error('the seeding time ran out while writing conversation summaries');
        await db
          .collection(CONVERSATIONS_COLLECTION)
          .insertOne({ _id: id as never, kind: 'c', day, z: await packBucket(c) });
        conversations += Object.keys(c).length;
      }
      const summariesAt = performance.now();
      // The transcript last, as far as the time allows: unordered batches, the next one made while
      // the store takes the one before (two in flight at most).
      let docs: object[] = [];
      const inFlight = new Set<Promise<void>>();
      const send = async (batch: object[]) => {
        const sent = db
          .collection('transcript')
          .insertMany(batch as never[], { ordered: false })
          .then(() => {
            transcriptRows += batch.length;
          });
        inFlight.add(sent);
        void sent.finally(() => inFlight.delete(sent)).catch(() => {});
        if (inFlight.size >= 2) await Promise.race(inFlight);
      };
      for (const user of seedUsers(plan)) {
        if (late()) break;
        for (const m of user.messages)
          docs.push(
            transcriptDoc(user.userId, m.seq, {
              from: m.from,
              at: m.at,
              message: m.message,
              ...(m.from === 'user' ? { clientId: `c${m.seq}` } : {}),
              ...(m.dialogId ? { dialogId: m.dialogId, stepId: m.stepId! } : {}),
            }),
          );
        if (docs.length >= TRANSCRIPT_BATCH) {
          await send(docs);
          docs = [];
        }
      }
      if (docs.length > 0 && !late()) await send(docs);
      await Promise.all(inFlight);
      console.log(
        `  seeding (Mongo-compatible): users and their index ${((usersAt - began) / 1000).toFixed(1)} s, counters, open lists and summaries ${((summariesAt - usersAt) / 1000).toFixed(1)} s, ` +
          `transcript ${((performance.now() - summariesAt) / 1000).toFixed(1)} s`,
      );
    } catch (error) {
      // What the store could not take is said in the output; the queries then read what it holds.
      stoppedBy = error instanceof Error ? error.message.slice(0, 300) : String(error);
    } finally {
      await client.close();
    }
    return {
      users,
      conversations,
      transcriptRows,
      transcriptLeftOut: plan.rows - transcriptRows,
      ...(stoppedBy ? { stoppedBy } : {}),
    };
  }
}
