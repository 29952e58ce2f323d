import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeBot } from '../../app/test/every-step-bot.ts';
import type { Store } from '../../ports/store.ts';
import { openMongoStore } from '../../stores/mongo/mongo-store.ts';
import { startServerChild, type ServerChild } from '../../test/server-child.ts';
import { TEST_FUNCTION_KEY } from '../../test/start-test-server.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import { clusterBot } from './cluster-bot.ts';
import { startRedis, type RedisProcess } from './redis-process.ts';

/** Three (or `size`) server processes on one Mongo-compatible store and one Redis, behind Debian's nginx. */
export interface Cluster {
  readonly nodes: ServerChild[];
  readonly balancer: Balancer;
  /** A connection of the test's own to the cluster's store, for checking what was stored. */
  readonly store: Store;
  /** The node whose log shows `text`, e.g. the node a user's widget connected to. */
  nodeWhoseLogHas(text: string): ServerChild | undefined;
  /** SIGKILLs a node and takes it out of `nodes`. */
  kill(node: ServerChild): Promise<void>;
  /** Posts a trigger to `url` (a node or the balancer). */
  trigger(url: string, dialog: string, userId: string, body: unknown, ip?: string): Promise<Response>;
  stop(): Promise<void>;
}

export async function startCluster(mongoUrl: string, extraEnv: Record<string, string> = {}, size = 3): Promise<Cluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cluster-kill-'));
  const redis: RedisProcess = await startRedis();
  const databaseUrl = `${mongoUrl.replace(/\/$/, '')}/cluster_kill_${process.pid}_${Date.now()}`;
  const env = {
    BOT_DEFINITION: await writeBot(dir, clusterBot),
    BOT_FUNCTION_KEY: TEST_FUNCTION_KEY,
    SESSION_SECRET: 'cluster-session-secret-0123456789abcdef',
    MONGODB_URL: databaseUrl,
    REDIS_URL: redis.url,
    JOB_LEASE_SECONDS: '3',
    MANAGEMENT_RATE_LIMIT: '100000',
    WEBCHAT_RATE_LIMIT: '600',
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  const nodes: ServerChild[] = [];
  for (let i = 0; i < size; i++) nodes.push(await startServerChild({ ...env, DATA_DIR: await mkdtemp(path.join(dir, 'node-')) }));
  const balancer = await startBalancer(nodes.map((node) => Number(new URL(node.url).port)));
  const store = await openMongoStore({ url: databaseUrl });
  return {
    nodes,
    balancer,
    store,
    nodeWhoseLogHas: (text) => nodes.find((node) => node.output().includes(text)),
    async kill(node) {
      await node.kill();
      nodes.splice(nodes.indexOf(node), 1);
    },
    trigger: (url, dialog, userId, body, ip = '10.9.9.9') =>
      fetch(`${url}/api/trigger/cluster/${dialog}?userId=${encodeURIComponent(userId)}`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY, 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify(body),
      }),
    async stop() {
      await Promise.all(nodes.map((node) => node.kill()));
      await balancer.stop();
      await redis.stop();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
