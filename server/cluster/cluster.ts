import { randomUUID } from 'node:crypto';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Logger } from '../ports/logger.ts';
import { Leases } from './leases.ts';
import { NodeRegistry } from './node-registry.ts';
import { Presence } from './presence.ts';
import { connectRedis, redisClient, type RedisClient } from './redis-client.ts';
import { SharedRateLimiter } from './shared-rate-limit.ts';
import { Signals } from './signals.ts';
import { RedisTurnLeases } from './turn-leases.ts';

/** What a node shares with the others through Redis; the store stays the truth. */
export interface Cluster {
  readonly nodeId: string;
  /** The socket.io adapter factory: rooms and broadcasts span every node. */
  readonly adapter: ReturnType<typeof createAdapter>;
  readonly presence: Presence;
  readonly registry: NodeRegistry;
  readonly signals: Signals;
  readonly leases: Leases;
  /** Each user's turn lease, so one user's turns run one at a time across the nodes (turn-leases.ts). */
  readonly turnLeases: RedisTurnLeases;
  /** Background datasets: changes announced to the other nodes, periodic pulls leased to one. */
  readonly datasets: {
    announce(name: string): void;
    onChange(listener: (name: string) => void): void;
    lease(name: string, ms: number): Promise<boolean>;
  };
  /** A request limit shared by every node (see shared-rate-limit.ts). */
  limiter(name: string, limit: number, windowMs: number): SharedRateLimiter;
  /** Resolves when Redis answers; for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Connects to REDIS_URL (start-up stops with one line when Redis does not answer) and joins the cluster. */
export async function openCluster(options: { readonly url: string; readonly logger: Logger }): Promise<Cluster> {
  const nodeId = randomUUID();
  const clients: RedisClient[] = [];
  const open = async (role: string, failFast: boolean) => {
    const client = redisClient({ url: options.url, logger: options.logger, role, failFast });
    await connectRedis(client);
    clients.push(client);
    return client;
  };
  try {
    // Fail fast: the adapter publishes a broadcast before it reaches this node's own sockets, so a
    // queued publish would hold local delivery until Redis is back.
    const streams = await open('adapter', true);
    // Its reader (XREAD, SUBSCRIBE) runs on a duplicate, which queues instead: while Redis is away
    // it waits rather than failing in a tight loop.
    const duplicate = streams.duplicate.bind(streams);
    streams.duplicate = ((overrides?: Parameters<typeof duplicate>[0]) =>
      duplicate({ ...overrides, disableOfflineQueue: false })) as typeof streams.duplicate;
    const fast = await open('limits', true);
    const subscriber = await open('signals', false);
    const registry = new NodeRegistry(fast, nodeId);
    await registry.start();
    const leases = new Leases(fast, nodeId);
    const signals = new Signals(fast, subscriber, options.logger);
    return {
      nodeId,
      // Plain JSON only (transcript items): the adapter skips its binary scan.
      adapter: createAdapter(streams, { streamName: 'chatbot:socket.io', onlyPlaintext: true, blockTimeInMs: 2000 }),
      presence: new Presence(fast, registry),
      registry,
      signals,
      leases,
      turnLeases: new RedisTurnLeases(fast),
      datasets: {
        // Lost while Redis is away: the other nodes then show the old rows until the next change or pull.
        announce: (name) =>
          void signals.publish('datasets', JSON.stringify({ node: nodeId, name })).catch(() => undefined),
        onChange: (listener) =>
          void signals
            .subscribe('datasets', (message) => {
              const { node, name } = JSON.parse(message) as { node: string; name: string };
              if (node !== nodeId) listener(name);
            })
            .catch((error: unknown) =>
              options.logger.warn(
                { event: 'cluster_subscribe_failed', error: (error as Error).message },
                'could not listen for dataset changes of other nodes',
              ),
            ),
        lease: (name, ms) => leases.take(name, ms),
      },
      limiter: (name, limit, windowMs) =>
        new SharedRateLimiter({
          name,
          limit,
          windowMs,
          client: fast,
          nodes: () => registry.nodes(),
          onFallback: (reason) =>
            options.logger.warn(
              { event: 'rate_limit_local', limit: name, nodes: registry.nodes(), reason },
              'the shared rate limit is unavailable; this node allows its share alone',
            ),
        }),
      async ping() {
        if (!fast.isReady) throw new Error('Redis is not connected');
        await fast.ping();
      },
      async close() {
        await leases.releaseAll();
        await registry.stop();
        for (const client of clients) await client.quit().catch(() => client.destroy());
      },
    };
  } catch (error) {
    for (const client of clients) client.destroy();
    throw error;
  }
}
