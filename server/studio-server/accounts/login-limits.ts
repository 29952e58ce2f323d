import { HttpError } from '../../ports/http-error.ts';

/** One turn at a limit, as the HTTP side's and the cluster's limiters answer (adapters do not import each other). */
export interface LimitTake {
  readonly allowed: boolean;
  readonly resetSeconds: number;
}
export type LimiterFactory = (
  name: string,
  limit: number,
  windowMs: number,
) => { take(key: string): LimitTake | Promise<LimitTake> };

export interface LoginLimitSettings {
  /** Sign-in attempts a minute for one account (by the email typed), over every node. */
  readonly perAccount: number;
  /** Sign-in attempts a minute from one client address (IPv6 by prefix), over every node. */
  readonly perIp: number;
}

const WINDOW_MS = 60_000;

/**
 * Counts sign-in attempts (password, setup) per account and per client address through the
 * product's limiter, so in cluster mode the count is shared by every node (Redis). Every
 * attempt counts, right or wrong: a person signs in a few times a day, a guesser many times a
 * second, and counting only failures would need a second round trip per attempt.
 */
export function loginLimits(factory: LimiterFactory, settings: LoginLimitSettings, ipKey: (ip: string) => string) {
  const byAccount = factory('studio-login-account', settings.perAccount, WINDOW_MS);
  const byIp = factory('studio-login-ip', settings.perIp, WINDOW_MS);
  const ask = async (limiter: typeof byAccount, key: string): Promise<LimitTake> => {
    try {
      return await limiter.take(key);
    } catch {
      // A shared limiter that cannot answer falls back to counting on this node (shared-rate-limit.ts); this is the last resort.
      return { allowed: true, resetSeconds: 1 };
    }
  };
  return {
    /** Throws 429 rate_limited when either count is over its limit. */
    async check(accountKey: string, ip: string): Promise<void> {
      const ipTake = await ask(byIp, ipKey(ip));
      const accountTake = ipTake.allowed ? await ask(byAccount, accountKey) : ipTake;
      if (!ipTake.allowed || !accountTake.allowed) {
        const wait = Math.max(ipTake.resetSeconds, accountTake.resetSeconds);
        throw new HttpError(429, 'rate_limited', `Too many sign-in attempts; wait ${wait} s, then try again.`, {
          retryAfterSeconds: wait,
        });
      }
    },
  };
}
