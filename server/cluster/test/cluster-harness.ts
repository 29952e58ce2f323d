import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeBot } from '../../app/test/every-step-bot.ts';
import { startServerChild, type ServerChild } from '../../test/server-child.ts';
import { TEST_FUNCTION_KEY } from '../../test/start-test-server.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import { clusterBot } from './cluster-bot.ts';
import { startRedis, type RedisProcess } from './redis-process.ts';

/** Three (or `size`) server processes on one Mongo-compatible store and one Redis, behind Debian's nginx. */
export interface Cluster {
  readonly nodes: ServerChild[];
  readonly balancer: Balancer;
  /** The cluster's database, for the test's own connection to check what was stored. */
  readonly databaseUrl: string;
  /** The node whose log shows `text`, e.g. the node a user's widget connected to. */
  nodeWhoseLogHas(text: string): ServerChild | undefined;
  /** SIGKILLs a node and takes it out of `nodes`. */
  kill(node: ServerChild): Promise<void>;
  /** Starts a node in the place of a killed one (same port, so the balancer finds it), as an operator's restart would. */
  replace(killed: ServerChild): Promise<void>;
  /** Posts a trigger to `url` (a node or the balancer). */
  trigger(url: string, dialog: string, userId: string, body: unknown, ip?: string): Promise<Response>;
  stop(): Promise<void>;
}

export async function startCluster(
  mongoUrl: string,
  extraEnv: Record<string, string> = {},
  size = 3,
): Promise<Cluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cluster-kill-'));
  const redis: RedisProcess = await startRedis();
  const databaseUrl = `${mongoUrl.replace(/\/$/, '')}/cluster_kill_${process.pid}_${Date.now()}`;
  const env = {
    BOT_DEFINITION: await writeBot(dir, clusterBot),
    BOT_FUNCTION_KEY: TEST_FUNCTION_KEY,
    SESSION_SECRET: 'cluster-session-secret-0123456789abcdef',
    SECRETS_KEY: 'cluster-secrets-key-0123456789abcdef',
    MONGODB_URL: databaseUrl,
    REDIS_URL: redis.url,
    JOB_LEASE_SECONDS: '3',
    MANAGEMENT_RATE_LIMIT: '100000',
    WEBCHAT_RATE_LIMIT: '600',
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  const nodes: ServerChild[] = [];
  const start = async (port = 0) =>
    startServerChild({ ...env, PORT: String(port), DATA_DIR: await mkdtemp(path.join(dir, 'node-')) });
  for (let i = 0; i < size; i++) nodes.push(await start());
  const balancer = await startBalancer(nodes.map((node) => Number(new URL(node.url).port)));
  return {
    nodes,
    balancer,
    databaseUrl,
    nodeWhoseLogHas: (text) => nodes.find((node) => node.output().includes(text)),
    async kill(node) {
      await node.kill();
      nodes.splice(nodes.indexOf(node), 1);
    },
    async replace(killed) {
      nodes.push(await start(Number(new URL(killed.url).port)));
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
      await rm(dir, { recursive: true, force: true });
    },
  };
}
