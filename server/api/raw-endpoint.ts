import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../ports/logger.ts';
import { rateLimitKey } from '../settings/client-ip.ts';
import { HttpError, errorBody, internalError } from './errors.ts';
import type { HttpMetrics } from './metrics.ts';
import { countRequest, rateLimitHeaders, rateLimited, type RequestLimiter } from './rate-limit.ts';
import { logRequest } from './request-log.ts';

/** Handles the request when it is one of its routes and returns true; anything else is left to the caller. */
export type RawEndpoint = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What every raw endpoint is given to answer and log with. */
export interface RawEndpointOptions {
  /** Values never to log, however they arrive in the URL. */
  readonly secrets: readonly string[];
  readonly logger: Logger;
  readonly metrics?: HttpMetrics | undefined;
}

/** One request to an endpoint served on node:http rather than through Express. */
export interface RawExchange extends RawEndpointOptions {
  readonly res: ServerResponse;
  readonly method: string;
  /** The URL as logged (secrets in it are redacted on the way). */
  readonly url: string;
  readonly ip: string;
  /** Handed along rather than read from the request context (request-id.ts); none where the route has no id. */
  readonly requestId?: string | undefined;
  /** The route's pattern, as the request metrics count it. */
  readonly route: string;
  readonly started: bigint;
  /** Headers every answer carries (the rate limit's). */
  readonly headers?: Record<string, string> | undefined;
  /** The Allow header of a 405 (RFC 9110). */
  readonly allow: (error: HttpError) => string | undefined;
}

export interface RawAnswers {
  /** Answers with a JSON body (or text), then logs the request line and counts it. */
  send(status: number, body: unknown, options?: { text?: boolean; headers?: Record<string, string> }): void;
  /** Answers an error with the catalogue's body, an unknown one as a logged 500; nothing once an answer has left. */
  fail(error: unknown): void;
}

/**
 * What every raw endpoint answers alike, as the Express routes do through their middleware: the
 * catalogue's error bodies, one request log line with secrets redacted, the request metrics under
 * the route's pattern. A HEAD answer has no body.
 */
export function rawAnswers(exchange: RawExchange): RawAnswers {
  const { res, method, requestId, logger } = exchange;
  const send: RawAnswers['send'] = (status, body, { text = false, headers } = {}) => {
    const payload = text ? String(body) : JSON.stringify(body);
    res.writeHead(status, {
      ...exchange.headers,
      ...headers,
      ...(requestId === undefined ? {} : { 'X-Request-Id': requestId }),
      'Content-Type': text ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(payload),
    });
    res.end(method === 'HEAD' ? undefined : payload);
    logRequest(
      logger,
      { method, url: exchange.url, status, ip: exchange.ip, requestId },
      exchange.started,
      exchange.secrets,
    );
    exchange.metrics?.observe(method, exchange.route, status, exchange.started);
  };
  const fail = (error: unknown) => {
    if (res.headersSent) return;
    const known = error instanceof HttpError ? error : internalError(logger, error, requestId);
    const allow = known.status === 405 ? exchange.allow(known) : undefined;
    send(known.status, errorBody(known.code, known.message, known.details, requestId), {
      ...(allow === undefined ? {} : { headers: { Allow: allow } }),
    });
  };
  return { send, fail };
}

/**
 * Counts the request against its client's limit, then serves it with answers that carry the
 * limit's headers, or refuses it with 429 (Retry-After). What `serve` throws is answered as `fail` would.
 */
export function serveLimited(
  exchange: Omit<RawExchange, 'headers'>,
  limiter: RequestLimiter,
  serve: (answers: RawAnswers) => void,
): void {
  countRequest(limiter, rateLimitKey(exchange.ip), (take) => {
    const answers = rawAnswers({ ...exchange, headers: rateLimitHeaders(take, limiter.windowMs) });
    try {
      if (!take.allowed) throw rateLimited(take);
      serve(answers);
    } catch (error) {
      answers.fail(error);
    }
  });
}

/** A request's URL, where its query starts (-1: none), and its path. */
export function splitUrl(raw: string | undefined): { url: string; queryAt: number; pathname: string } {
  const url = raw ?? '';
  const queryAt = url.indexOf('?');
  return { url, queryAt, pathname: queryAt === -1 ? url : url.slice(0, queryAt) };
}

/** The query string of a split URL. */
export function queryOf({ url, queryAt }: { url: string; queryAt: number }): URLSearchParams {
  return new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
}

/** A path segment, percent-decoded (a standard-base64 `/` arrives as %2F). */
export function segment(raw: string): string {
  try {
    return raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    throw new HttpError(400, 'invalid_parameter', 'A part of the URL is not valid percent-encoding.');
  }
}
