// Child process for bench/webhook-ack.ts and bench/channel-turn.ts: the real server on SQLite with the Slack, Telegram
// and WhatsApp channels (and a REST channel) configured, each whose BENCH_ settings are given (job runner included: turns run and answers go
// to the stand-ins meanwhile, as in production), so autocannon's CPU and the stand-ins' in the parent are not the server's.
// Run alone (by `npm run bench`, which runs every bench/*.ts) it does nothing.
import { openDatabase } from '../server/stores/sqlite/database.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loopMeter } from './loop-meter.ts';
import { phaseProfiler } from './phase-profiler.ts';
import { durableFloor } from './durable-floor.ts';

if (process.send) {
  const { readConfig } = await import('../server/config.ts');
  const { startServer } = await import('../server/main.ts');
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-webhook-'));
  const server = await startServer(
    readConfig({
      PORT: '0',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      BOT_DEFINITION: process.env.BENCH_BOT ?? '',
      // bench/channel-turn.ts sends every widget's messages from one address.
      WEBCHAT_RATE_LIMIT: '1000000',
      // bench/channel-turn.ts's second reference: the REST protocol, answered in the response.
      ...(process.env.BENCH_REST_KEY
        ? {
            REST_CHANNELS: JSON.stringify([{ name: 'bench', key: process.env.BENCH_REST_KEY }]),
            REST_CHANNEL_RATE_LIMIT: '1000000',
          }
        : {}),
      SLACK_BOT_TOKEN: process.env.BENCH_SLACK_TOKEN ?? '',
      SLACK_SIGNING_SECRET: process.env.BENCH_SLACK_SECRET ?? '',
      SLACK_API_URL: process.env.BENCH_SLACK_URL ?? '',
      TELEGRAM_BOT_TOKEN: process.env.BENCH_TELEGRAM_TOKEN ?? '',
      TELEGRAM_WEBHOOK_SECRET: process.env.BENCH_TELEGRAM_SECRET ?? '',
      TELEGRAM_API_URL: process.env.BENCH_TELEGRAM_URL ?? '',
      WHATSAPP_ACCESS_TOKEN: process.env.BENCH_WHATSAPP_TOKEN ?? '',
      WHATSAPP_PHONE_NUMBER_ID: process.env.BENCH_WHATSAPP_NUMBER ?? '',
      WHATSAPP_APP_SECRET: process.env.BENCH_WHATSAPP_SECRET ?? '',
      WHATSAPP_VERIFY_TOKEN: process.env.BENCH_WHATSAPP_SECRET ? 'bench-whatsapp-verify-token-0123' : '',
      WHATSAPP_API_URL: process.env.BENCH_WHATSAPP_URL ?? '',
    }),
  );
  const look = openDatabase(path.join(dir, 'chatbot.sqlite'), { readonly: true });
  const pending = look.prepare<[], { n: number }>(
    "SELECT count(*) AS n FROM jobs WHERE kind IN ('channel_turn', 'channel_send') AND status IN ('pending', 'running')",
  );
  // BENCH_LOOP_DELAY=1: each reading also says how late the event loop ran since the one before (what an arriving request waits for).
  const loop = process.env.BENCH_LOOP_DELAY ? loopMeter() : undefined;
  // BENCH_PHASE_PROFILE=<dir>: the parent names each measured phase; its CPU profile alone is written there.
  const phases = process.env.BENCH_PHASE_PROFILE ? phaseProfiler(process.env.BENCH_PHASE_PROFILE) : undefined;
  process.on('message', (message: { cmd: 'cpu' | 'stop' | 'profile' | 'floor'; phase?: string; users?: number }) => {
    if (message.cmd === 'floor')
      void durableFloor(dir, message.users ?? 10, 20).then((floor) => process.send!({ floor }));
    else if (message.cmd === 'profile')
      void (phases?.(message.phase) ?? Promise.resolve()).then(() =>
        process.send!({ profiled: message.phase ?? null }),
      );
    else if (message.cmd === 'cpu')
      process.send!({ cpu: process.cpuUsage(), pending: pending.get()?.n ?? 0, ...(loop ? { loop: loop() } : {}) });
    else {
      look.close();
      void server.close().then(async () => {
        await rm(dir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  process.send({ url: server.url });
}
