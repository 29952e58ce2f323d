import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from './redis-client.ts';

/** One request's turn at the limit, in the shape the HTTP side's RateLimitTake has (adapters do not import each other). */
export interface RateLimitTake {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly resetSeconds: number;
}

export interface SharedRateLimitOptions {
  /** Requests per window over the whole cluster. */
  readonly limit: number;
  readonly windowMs: number;
  /** Separates this limit's counters from other limits' (management, rest, webchat). */
  readonly name: string;
  /** A client that fails fast while Redis is away (redis-client.ts `failFast`). */
  readonly client: RedisClient;
  /** How many nodes run now, as last seen; each takes limit / nodes while Redis is away. */
  readonly nodes: () => number;
  /** Told once per outage why the shared count failed and this node counts alone. */
  readonly onFallback?: (reason: string) => void;
}

/**
 * One request limit shared by every node: counters live in Redis (a fixed window per client
 * key, as the single-node limiter counts). While Redis is away each node counts alone in
 * memory and allows its share, limit / nodes, so the cluster as a whole still holds about
 * the limit; once Redis answers again the shared count holds.
 */
export class SharedRateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly shared: RateLimiterRedis;
  private readonly insurance: RateLimiterMemory;
  private fellBack = false;

  constructor(private readonly options: SharedRateLimitOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    const duration = Math.max(1, Math.round(options.windowMs / 1000));
    this.insurance = new RateLimiterMemory({ points: this.share(), duration, keyPrefix: `${options.name}:local` });
    this.shared = new RateLimiterRedis({
      storeClient: options.client,
      useRedisPackage: true,
      // Not connected: the insurance limiter answers at once rather than a command waiting.
      rejectIfRedisNotReady: true,
      points: options.limit,
      duration,
      keyPrefix: `chatbot:limit:${options.name}`,
    });
  }

  async take(key: string): Promise<RateLimitTake> {
    // The share follows the number of nodes seen last; it is read when Redis fails.
    this.insurance.points = this.share();
    try {
      const res = await this.shared.consume(key);
      this.fellBack = false;
      return this.answer(true, res);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return this.answer(false, refusal);
      if (!this.fellBack) this.options.onFallback?.((refusal as Error).message);
      this.fellBack = true;
    }
    try {
      return this.answer(true, await this.insurance.consume(key));
    } catch (refusal) {
      return this.answer(false, refusal as RateLimiterRes);
    }
  }

  private share(): number {
    return Math.max(1, Math.floor(this.options.limit / Math.max(1, this.options.nodes())));
  }

  private answer(allowed: boolean, res: RateLimiterRes): RateLimitTake {
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    };
  }
}
