import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRedis, type RedisProcess } from '../../cluster/test/redis-process.ts';
import { startServerChild, type ServerChild } from '../../test/server-child.ts';
import { TEST_FUNCTION_KEY, eventually } from '../../test/start-test-server.ts';
import { telegramBot } from '../../channels/telegram/test/telegram-bot.ts';
import {
  deliver,
  startTelegramStandIn,
  textUpdate,
  type TelegramStandIn,
} from '../../channels/telegram/test/telegram-stand-in.ts';
import { setUpOwner } from './studio-client.ts';

const mongoUrl = inject('mongoUrl');
const SECRET = 'cluster-studio-webhook-secret-0123456789';

/**
 * Two nodes on one store and one Redis: Telegram set up in the studio on node A is on at node B
 * at once (B reads the studio's secrets again when A announces the change), with no restart.
 */
describe.skipIf(!mongoUrl)('Settings → Channels in a cluster', () => {
  let dir: string;
  let redis: RedisProcess;
  let telegram: TelegramStandIn;
  const nodes: ServerChild[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'studio-channels-cluster-'));
    redis = await startRedis();
    telegram = await startTelegramStandIn();
    const bot = path.join(dir, 'bot.json');
    await writeFile(bot, JSON.stringify(telegramBot()));
    const env = {
      BOT_DEFINITION: bot,
      BOT_FUNCTION_KEY: TEST_FUNCTION_KEY,
      SESSION_SECRET: 'cluster-session-secret-0123456789abcdef',
      SECRETS_KEY: 'cluster-secrets-key-0123456789abcdef',
      MONGODB_URL: `${mongoUrl.replace(/\/$/, '')}/studio_channels_${process.pid}_${Date.now()}`,
      REDIS_URL: redis.url,
      JOB_LEASE_SECONDS: '3',
      TELEGRAM_API_URL: telegram.url,
    };
    for (let i = 0; i < 2; i++)
      nodes.push(await startServerChild({ ...env, DATA_DIR: await mkdtemp(path.join(dir, 'node-')) }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await telegram?.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('when the owner sets Telegram up on node A, then a webhook to node B reaches the bot, and a change on A is followed by B', async () => {
    const [a, b] = nodes as [ServerChild, ServerChild];
    const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(a.output())![1]!;
    const owner = await setUpOwner(a.url, link);
    expect((await deliver(`${b.url}/api/webhooks/telegram`, textUpdate(9001, '/start'), SECRET)).status).toBe(404);
    const saved = await owner.put('/studio/api/channels/telegram', {
      values: { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_WEBHOOK_SECRET: SECRET },
    });
    expect(saved.status).toBe(200);
    await eventually(
      'node B takes Telegram webhooks',
      async () =>
        (await deliver(`${b.url}/api/webhooks/telegram`, textUpdate(9001, '/start', { username: 'bea' }), SECRET))
          .status === 200,
      20_000,
    );
    await eventually('the greeting', () =>
      telegram.calls.some((call) => call.params.chat_id === 9001 && call.params.text === 'Hello bea.'),
    );
    const removed = await owner.put('/studio/api/channels/telegram', {
      values: { TELEGRAM_BOT_TOKEN: null, TELEGRAM_WEBHOOK_SECRET: null },
    });
    expect(removed.body.on).toBe(false);
    await eventually(
      'node B turned Telegram off',
      async () => (await deliver(`${b.url}/api/webhooks/telegram`, textUpdate(9002, 'hi'), SECRET)).status === 404,
      20_000,
    );
  }, 120_000);
});
