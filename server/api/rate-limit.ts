import { HttpError } from './errors.ts';

/** What one request's turn at the limit came to. */
export interface RateLimitTake {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until this client's window starts over (at least 1). */
  readonly resetSeconds: number;
}

/** A request limit per client key: this process's RateLimiter, or one shared by every node (server/cluster). */
export interface RequestLimiter {
  readonly limit: number;
  readonly windowMs: number;
  take(key: string): RateLimitTake | Promise<RateLimitTake>;
}

/** Makes a limiter of `limit` requests per `windowMs`; the in-memory RateLimiter when none is given. */
export type LimiterFactory = (name: string, limit: number, windowMs: number) => RequestLimiter;

export const localLimiter: LimiterFactory = (_name, limit, windowMs) => new RateLimiter(limit, windowMs);

/**
 * A fixed-window request limit per client key: `limit` requests per
 * `windowMs`, the window starting at the client's first request. Synchronous
 * and in memory, so the trigger endpoint's hot path pays a Map lookup.
 * Expired windows are swept once per window, not per request.
 */
export class RateLimiter implements RequestLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): RateLimitTake {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return {
      allowed: window.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

/**
 * Hands `serve` the limiter's answer for `key`: at once from this process's limiter, after a
 * Redis round trip from a shared one (cluster mode). A shared limiter that cannot answer lets
 * the request through, as its fallback would.
 */
export function countRequest(limiter: RequestLimiter, key: string, serve: (take: RateLimitTake) => void): void {
  const counted = limiter.take(key);
  if (!(counted instanceof Promise)) return serve(counted);
  counted.then(serve, () => serve({ allowed: true, limit: limiter.limit, remaining: 0, resetSeconds: 1 }));
}

/**
 * The IETF draft-7 RateLimit headers every management response carries (as the
 * limiter's earlier library sent them), and Retry-After on a refusal.
 */
export function rateLimitHeaders(take: RateLimitTake, windowMs: number): Record<string, string> {
  return {
    'RateLimit-Policy': `${take.limit};w=${Math.round(windowMs / 1000)}`,
    RateLimit: `limit=${take.limit}, remaining=${take.remaining}, reset=${take.resetSeconds}`,
    ...(take.allowed ? {} : { 'Retry-After': String(take.resetSeconds) }),
  };
}

/** The refusal of a request over the limit, in the error catalogue's words. */
export function rateLimited(take: RateLimitTake): HttpError {
  return new HttpError(429, 'rate_limited', `Too many requests from this client; retry in ${take.resetSeconds} s.`, {
    retryAfterSeconds: take.resetSeconds,
  });
}
