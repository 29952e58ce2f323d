import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeBot } from '../../app/test/every-step-bot.ts';
import { clusterBot } from '../../cluster/test/cluster-bot.ts';
import { startRedis, type RedisProcess } from '../../cluster/test/redis-process.ts';
import { startServerChild, type ServerChild } from '../../test/server-child.ts';
import { TEST_FUNCTION_KEY } from '../../test/start-test-server.ts';
import { linkToken, PASSWORD, StudioClient } from './studio-client.ts';

const mongoUrl = inject('mongoUrl');

/**
 * Guessing a studio password over two nodes (real Redis, the Mongo-compatible store): the
 * sign-in limit per account is one count in Redis, so moving between nodes gains nothing.
 */
describe.skipIf(!mongoUrl)('the studio sign-in limit in cluster mode', () => {
  let dir: string;
  let redis: RedisProcess;
  const nodes: ServerChild[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'login-limit-'));
    redis = await startRedis();
    const env = {
      BOT_DEFINITION: await writeBot(dir, clusterBot),
      BOT_FUNCTION_KEY: TEST_FUNCTION_KEY,
      SESSION_SECRET: 'cluster-session-secret-0123456789abcdef',
      SECRETS_KEY: 'cluster-secrets-key-0123456789abcdefghij',
      MONGODB_URL: `${mongoUrl.replace(/\/$/, '')}/login_limit_${process.pid}`,
      REDIS_URL: redis.url,
      UPSTREAM_URL: 'http://127.0.0.1:9/',
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    for (let i = 0; i < 2; i++)
      nodes.push(await startServerChild({ ...env, DATA_DIR: await mkdtemp(path.join(dir, 'node-')) }));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('when ten wrong passwords for one account come over two nodes within a minute, then the eleventh attempt is refused on either node even with the right password, and once the minute is over the right one works', async () => {
    const [a, b] = nodes as [ServerChild, ServerChild];
    // The first owner, through the link node A printed.
    const link = /\/studio\/setup#([A-Za-z0-9_-]+)/.exec(a.output())![1]!;
    const owner = new StudioClient(a.url);
    expect(
      (
        await owner.post('/studio/api/setup', {
          token: linkToken(`#${link}`),
          email: 'owner@example.com',
          name: 'Owner',
          password: PASSWORD,
        })
      ).status,
    ).toBe(201);

    // Each guess from its own address, so only the per-account count can stop them.
    const attempt = (node: ServerChild, password: string, ip: string) =>
      new StudioClient(node.url, { 'x-forwarded-for': ip }).login('owner@example.com', password);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await attempt(i % 2 === 0 ? a : b, `wrong guess ${i}`, `198.51.100.${i + 1}`)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const eleventh = await attempt(b, PASSWORD, '198.51.100.50');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error.code).toBe('rate_limited');
    expect((await attempt(a, PASSWORD, '198.51.100.51')).status).toBe(429);

    await new Promise((resolve) => setTimeout(resolve, 61_000));
    const after = await attempt(a, PASSWORD, '198.51.100.52');
    expect(after.status).toBe(200);
    expect(after.body.account.email).toBe('owner@example.com');
  }, 120_000);
});
