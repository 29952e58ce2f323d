// Child process for bench/trigger-throughput.ts: the real server on SQLite (job runner
// included, as in production), so autocannon's own CPU in the parent is not the server's.
// Run alone (by `npm run bench`, which runs every bench/*.ts) it does nothing.
import { openDatabase } from '../server/stores/sqlite/database.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

if (process.send) {
  const { readConfig } = await import('../server/config.ts');
  const { startServer } = await import('../server/main.ts');
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-trigger-'));
  const server = await startServer(
    readConfig({
      PORT: '0',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      BOT_FUNCTION_KEY: process.env.BENCH_KEY ?? '',
      BOT_DEFINITION: process.env.BENCH_BOT ?? '',
      MANAGEMENT_RATE_LIMIT: '100000000',
    }),
  );
  // How far the job runner got: a read-only look at the jobs table beside the server's connection.
  const look = openDatabase(path.join(dir, 'chatbot.sqlite'), { readonly: true });
  const byStatus = look.prepare<[string], { n: number }>('SELECT count(*) AS n FROM jobs WHERE status = ?');
  const count = async (status: string) => byStatus.get(status)?.n ?? 0;
  process.on('message', (message: { cmd: 'cpu' | 'pause' | 'resume' | 'stop' }) => {
    if (message.cmd === 'pause') {
      // Accept-only measurement: the job runner stops claiming; accepted triggers wait as pending jobs.
      void server.jobs.stop().then(() => process.send!({ paused: true }));
    } else if (message.cmd === 'resume') {
      server.jobs.start();
      process.send!({ resumed: true });
    } else if (message.cmd === 'cpu') {
      const cpu = process.cpuUsage();
      void Promise.all([count('done'), count('pending')]).then(([done, pending]) =>
        process.send!({ cpu, done, pending }),
      );
    } else {
      look.close();
      void server.close().then(async () => {
        await rm(dir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  process.send({ url: server.url });
}
