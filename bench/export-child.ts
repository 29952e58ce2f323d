// Child process for bench/export-throughput.ts: the real server (and its store), seeded,
// so the HTTP client in the parent does not share the server's event loop or its RSS.
// Reports the raw store-cursor read (the export's own store calls, nothing after them) and the
// server's peak RSS growth on request.
// Run alone (by `npm run bench`, which runs every bench/*.ts) it does nothing.
import { openDatabase } from '../server/stores/sqlite/database.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type ChildCommand =
  | { cmd: 'raw'; what: 'users' | 'logs' }
  | { cmd: 'rss-start'; what: 'users' | 'logs' }
  | { cmd: 'rss-stop' }
  | { cmd: 'stop' };
export interface ChildStart {
  readonly env: Record<string, string>;
  readonly rows: number;
  readonly seedUsersDirectly: boolean;
}

const T0 = Date.UTC(2026, 0, 1);

if (process.send) {
  const send = (message: unknown) => process.send!(message);
  const { readConfig } = await import('../server/config.ts');
  const { startServer } = await import('../server/main.ts');
  type Store = Awaited<ReturnType<typeof startServer>>['store'];

  const start = await new Promise<ChildStart>((resolve) => process.once('message', resolve));
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-export-'));
  const server = await startServer(
    readConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', MANAGEMENT_RATE_LIMIT: '100000', ...start.env }),
  );
  const seeding = performance.now();
  if (start.seedUsersDirectly) seedSqliteUsers(path.join(dir, 'chatbot.sqlite'), start.rows);
  else await seedUsersViaStore(server.store, start.rows);
  await seedLogsViaStore(server.store, start.rows);
  send({ ready: true, url: server.url, seededSeconds: (performance.now() - seeding) / 1000 });

  // BENCH_PROF=<dir>: a CPU profile of each measured leg alone (not of the seeding), one file per leg.
  const profDir = process.env.BENCH_PROF;
  const inspector = profDir ? new Session() : null;
  if (inspector) {
    inspector.connect();
    await inspector.post('Profiler.enable');
  }
  let leg = '';
  const profile = async (name: string) => {
    if (!inspector) return;
    if (leg === '') {
      leg = name;
      await inspector.post('Profiler.start');
      return;
    }
    const { profile: taken } = await inspector.post('Profiler.stop');
    await writeFile(path.join(profDir!, `export-${leg}.cpuprofile`), JSON.stringify(taken));
    leg = '';
  };

  let base = 0;
  let peak = 0;
  let cpu = process.cpuUsage();
  let sampler: NodeJS.Timeout | undefined;
  const sampleRss = () => {
    global.gc?.();
    cpu = process.cpuUsage();
    base = process.memoryUsage().rss;
    peak = base;
    sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  };
  const stopRss = () => {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    return (peak - base) / 2 ** 20;
  };

  process.on('message', (message: ChildCommand) => {
    void (async () => {
      if (message.cmd === 'raw') {
        await profile(`${message.what}-raw`);
        sampleRss();
        const started = performance.now();
        let rows = 0;
        // The export route's own store calls, batch size and all (server/app/export-records.ts):
        // the preview users' ids, then the same range read a batch at a time. What the export
        // does beyond this (records, JSON, HTTP) is its overhead.
        const range = { batchSize: 1000 };
        await server.store.previewUsers();
        const read =
          message.what === 'users' ? server.store.exportKnownUsers(range) : server.store.readLogs('nlpLog', range);
        for await (const batch of read.batches()) rows += batch.length;
        const used = process.cpuUsage(cpu);
        await profile('');
        send({
          raw: {
            rows,
            seconds: (performance.now() - started) / 1000,
            rssMb: stopRss(),
            cpuSeconds: (used.user + used.system) / 1e6,
            sysSeconds: used.system / 1e6,
          },
        });
      } else if (message.cmd === 'rss-start') {
        await profile(`${message.what}-http`);
        sampleRss();
        send({ sampling: true });
      } else if (message.cmd === 'rss-stop') {
        const used = process.cpuUsage(cpu);
        await profile('');
        send({ rssMb: stopRss(), cpuSeconds: (used.user + used.system) / 1e6, sysSeconds: used.system / 1e6 });
      } else {
        await server.close();
        await rm(dir, { recursive: true, force: true });
        process.exit(0);
      }
    })();
  });

  async function seedLogsViaStore(store: Store, rows: number): Promise<void> {
    for (let i = 0; i < rows; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, rows - i) }, (_, j) => ({
        userId: `u${i + j}`,
        timestamp: T0 + i + j,
        data: {
          dialogId: 'greeting',
          stepId: 'ask',
          stepType: 'input',
          query: `unprocessed input ${i + j}`,
          modelId: null,
          intent: null,
          result: null,
          processed: false,
        },
      }));
      await store.appendLogs('nlpLog', batch);
    }
  }

  async function seedUsersViaStore(store: Store, rows: number): Promise<void> {
    for (let i = 0; i < rows; i++) {
      const user = await store.ensureUser({
        userId: `u${i}`,
        channelId: 'webchat',
        userData: { email: `u${i}@example.com`, name: `User ${i}` },
        now: T0 + i,
      });
      await store.updateUser(user.userId, user.version, { lastMessageAt: T0 + i }, T0 + i);
    }
  }
}

/** 1M users through the store API would take minutes; the rows are written straight into the file instead. */
function seedSqliteUsers(file: string, rows: number): void {
  const db = openDatabase(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    `INSERT INTO users (user_id, channel_id, position, variables, user_data, last_message_at, created_at, updated_at, version, last_seq)
     VALUES (?, 'webchat', NULL, '{}', ?, ?, ?, ?, 1, 0)`,
  );
  const many = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++)
      insert.run(
        `u${i}`,
        JSON.stringify({ email: `u${i}@example.com`, name: `User ${i}`, score: i % 100 }),
        T0 + i,
        T0 + i,
        T0 + i,
      );
  });
  for (let i = 0; i < rows; i += 50_000) many(i, Math.min(rows, i + 50_000));
  db.close();
}
