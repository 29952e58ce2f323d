import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMongoTestServer, type MongoTestServer } from '../scripts/mongo-test-server.ts';
import { writeBot } from '../server/app/test/every-step-bot.ts';
import { startBalancer, type Balancer } from '../server/cluster/test/balancer.ts';
import { clusterBot } from '../server/cluster/test/cluster-bot.ts';
import { startRedis, type RedisProcess } from '../server/cluster/test/redis-process.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { messages } from './conversation.ts';
import { serveHostPage, type HostPage } from './host-page.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const POLL = { timeout: 20_000 };
const SHOP_HOST = 'shop.test';
const BOT_HOST = 'bot.test';
const KEY = 'e2e-cluster-function-key-0123456789';

let dir: string;
let mongo: MongoTestServer;
let redis: RedisProcess;
let balancer: Balancer;
let shop: HostPage;
let browser: Browser;
let botUrl = '';
const nodes: ServerProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'e2e-cluster-'));
  mongo = await startMongoTestServer();
  if (mongo.url === null) throw new Error(`no Mongo-compatible server: ${mongo.reason}`);
  redis = await startRedis();
  const env = {
    BOT_DEFINITION: await writeBot(dir, clusterBot),
    BOT_FUNCTION_KEY: KEY,
    SESSION_SECRET: 'e2e-cluster-session-secret-0123456789abcdef',
    SECRETS_KEY: 'e2e-cluster-secrets-key-0123456789abcdef',
    MONGODB_URL: `${mongo.url.replace(/\/$/, '')}/e2e_cluster_${process.pid}`,
    REDIS_URL: redis.url,
    LOG_LEVEL: 'info',
  };
  for (let i = 0; i < 3; i++) nodes.push(await startServerProcess(env));
  balancer = await startBalancer(nodes.map((node) => node.port));
  botUrl = `http://${BOT_HOST}:${new URL(balancer.url).port}`;
  shop = await serveHostPage(() => `${botUrl}/widget.js`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${SHOP_HOST} 127.0.0.1, MAP ${BOT_HOST} 127.0.0.1`],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await balancer?.stop();
  await Promise.all(nodes.map((node) => node.stop()));
  await redis?.stop();
  if (mongo?.url) await mongo.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the widget in Chromium, on a cluster behind nginx', () => {
  it('when a trigger is posted to another node than the one the widget is on, then the message shows live and the 202 says live', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://${SHOP_HOST}:${shop.port}/`);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(() => messages(page), POLL).toContain('Bot: Say something.');
    const connect = (node: ServerProcess) => /"event":"socket_connect","userId":"([^"]+)"/.exec(node.output())?.[1];
    const home = nodes.find((node) => connect(node) !== undefined)!;
    const userId = connect(home)!;
    const other = nodes.find((node) => node !== home)!;
    const res = await fetch(`${other.url}/api/trigger/cluster/ping?userId=${encodeURIComponent(userId)}`, {
      method: 'POST',
      headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ n: 42 }),
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ userId, delivery: 'live' });
    await expect.poll(() => messages(page), POLL).toContain('Bot: Ping 42.');
  });
});
