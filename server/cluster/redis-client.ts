import { createClient } from 'redis';
import type { Logger } from '../ports/logger.ts';

export type RedisClient = ReturnType<typeof createClient>;

export interface RedisClientOptions {
  readonly url: string;
  readonly logger: Logger;
  /** What this connection is for, in log lines (adapter, limits, signals). */
  readonly role: string;
  /**
   * Fail commands at once while disconnected instead of queueing them. The rate limiter wants
   * this (its insurance limiter answers instead); the socket.io adapter does not (its stream
   * reader would spin on failures, and a queued broadcast is still worth sending late).
   */
  readonly failFast?: boolean;
}

/**
 * A node-redis client that reconnects forever with a capped backoff and logs an outage once
 * (at warn) and its end once (at info), never per failed attempt. The URL, which may hold a
 * password, is never logged.
 */
export function redisClient(options: RedisClientOptions): RedisClient {
  const client = createClient({
    url: options.url,
    disableOfflineQueue: options.failFast ?? false,
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 6), 1000),
    },
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    options.logger.warn(
      { event: 'redis_unreachable', role: options.role, error: error.message },
      'Redis does not answer; live delivery across nodes and shared rate limits wait for it',
    );
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    options.logger.info({ event: 'redis_reachable', role: options.role }, 'Redis answers again');
  });
  return client;
}

/** Connects, or throws one sentence naming REDIS_URL when Redis does not answer within `timeoutMs`. */
export async function connectRedis(client: RedisClient, timeoutMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `Redis at REDIS_URL did not answer within ${timeoutMs / 1000} s; check that it runs and the address is right.`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (error) {
    client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
