// Child process for bench/telegram-webhook.ts: the real server on SQLite with the Telegram channel
// (job runner included, as in production), so autocannon's and the Bot API stand-in's CPU in the
// parent is not the server's. Run alone (by `npm run bench`, which runs every bench/*.ts) it does nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

if (process.send) {
  const { readConfig } = await import('../server/config.ts');
  const { startServer } = await import('../server/main.ts');
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-telegram-'));
  const server = await startServer(
    readConfig({
      PORT: '0',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      BOT_FUNCTION_KEY: process.env.BENCH_KEY ?? '',
      BOT_DEFINITION: process.env.BENCH_BOT ?? '',
      MANAGEMENT_RATE_LIMIT: '100000000',
      TELEGRAM_BOT_TOKEN: process.env.BENCH_TOKEN ?? '',
      TELEGRAM_WEBHOOK_SECRET: process.env.BENCH_SECRET ?? '',
      TELEGRAM_API_URL: process.env.BENCH_API ?? '',
    }),
  );
  // BENCH_TELEGRAM_MODE=accept: the job runner stays stopped, so only accepting the webhooks is measured (nothing is answered).
  if (process.env.BENCH_TELEGRAM_MODE === 'accept') await server.jobs.stop();
  process.on('message', (message: { cmd: 'cpu' | 'stop' }) => {
    if (message.cmd === 'cpu') process.send!({ cpu: process.cpuUsage() });
    else
      void server.close().then(async () => {
        await rm(dir, { recursive: true, force: true });
        process.exit(0);
      });
  });
  process.send({ url: server.url });
}
