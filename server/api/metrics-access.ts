import type { RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from './errors.ts';

/** Who may read GET /metrics. */
export interface MetricsAccess {
  /** METRICS_TOKEN: the bearer token a scraper sends; the function key is then not accepted here. */
  readonly token?: string;
  /** No token and the server listens on loopback only: anyone who can reach it may scrape. */
  readonly openOnLoopback: boolean;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** HOST values that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The guard of /metrics: a scraper must not need the key that exports all personal data
 * and fires triggers. With METRICS_TOKEN, `Authorization: Bearer <token>` (compared in
 * constant time); without it, open on a loopback-only server, else the function key.
 */
export function metricsGuard(access: MetricsAccess, functionKeyGuard: RequestHandler): RequestHandler {
  if (access.token !== undefined) {
    const expected = digest(access.token);
    return (req, _res, next) => {
      const match = /^Bearer (.+)$/i.exec(req.get('authorization') ?? '');
      const ok = match !== null && timingSafeEqual(digest(match[1]!.trim()), expected);
      next(
        ok
          ? undefined
          : new HttpError(
              401,
              'unauthorized',
              'Send the metrics token (METRICS_TOKEN) as Authorization: Bearer <token>.',
            ),
      );
    };
  }
  if (access.openOnLoopback) return (_req, _res, next) => next();
  return functionKeyGuard;
}
