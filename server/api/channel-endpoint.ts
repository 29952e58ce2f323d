import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChannelHandler, ChannelRequest } from '../ports/channel-request.ts';
import type { Logger } from '../ports/logger.ts';
import { TRUST_LOOPBACK, clientIp, rateLimitKey, type ProxyTrust } from '../settings/client-ip.ts';
import { HttpError, errorBody, internalError } from './errors.ts';
import type { HttpMetrics } from './metrics.ts';
import { countRequest, rateLimitHeaders, rateLimited, type RateLimitTake, type RequestLimiter } from './rate-limit.ts';
import { readBody } from './read-body.ts';
import { requestIdOf } from './request-id.ts';
import { logRequest } from './request-log.ts';

export interface ChannelEndpointOptions {
  readonly handler: ChannelHandler;
  /** REST_CHANNEL_RATE_LIMIT, counted per client over every channel path. */
  readonly limiter: RequestLimiter;
  /** Values never to log, however they arrive in the URL (the channels' keys, the function key). */
  readonly secrets: readonly string[];
  readonly trustProxy?: ProxyTrust | undefined;
  readonly logger: Logger;
  readonly metrics?: HttpMetrics | undefined;
}

/** Handles the request when it is under /api/channels and returns true; anything else is left to the caller. */
export type RawEndpoint = (req: IncomingMessage, res: ServerResponse) => boolean;

// As Express matched them: case-insensitive prefix, one segment per part, an optional trailing slash.
const PREFIX = /^\/api\/channels(?:\/|$)/i;
const MESSAGES = /^\/api\/channels\/([^/]+)\/users\/([^/]+)\/messages\/?$/i;
const ROUTE = '/api/channels/:channel/users/:user/messages';

/**
 * The generic bot REST channels' HTTP side, on node:http directly rather than through
 * Express, as the trigger endpoint is: a channel sends every user message this way, and
 * Express's routing and body parsing cost more than the turn. Everything else an API
 * route has is here alike: the rate limit first (its headers on every answer, 429 with
 * Retry-After), the catalogue's error bodies, one request log line with secrets
 * redacted, and the request metrics under the route's pattern. Its request id is handed
 * along rather than put in the request context (request-id.ts): entering that context
 * costs more per turn than the rest of this file, and the id still reaches the
 * X-Request-Id header, error bodies, the request line and the turn's log lines.
 */
export function channelEndpoint(options: ChannelEndpointOptions): RawEndpoint {
  return (req, res) => {
    const { url, queryAt, pathname } = splitUrl(req.url);
    if (!PREFIX.test(pathname)) return false;
    const started = process.hrtime.bigint();
    const receivedAt = performance.now();
    const requestId = requestIdOf(req, options.trustProxy ?? TRUST_LOOPBACK);
    const match = MESSAGES.exec(pathname);
    const ip = clientIp(req, options.trustProxy);
    const method = req.method ?? '';
    countRequest(options.limiter, rateLimitKey(ip), serve);
    return true;

    function serve(take: RateLimitTake): void {
      const headers = rateLimitHeaders(take, options.limiter.windowMs);
      const send = (status: number, body: unknown, extra?: Record<string, string>) => {
        const text = JSON.stringify(body);
        res.writeHead(status, {
          ...headers,
          ...extra,
          'X-Request-Id': requestId,
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(method === 'HEAD' ? undefined : text);
        logRequest(options.logger, { method, url, status, ip, requestId }, started, options.secrets);
        options.metrics?.observe(method, match ? ROUTE : 'other', status, started);
      };
      const fail = (error: unknown) => {
        if (res.headersSent) return;
        const known = error instanceof HttpError ? error : internalError(options.logger, error, requestId);
        send(
          known.status,
          errorBody(known.code, known.message, known.details, requestId),
          known.status === 405 ? { Allow: 'GET, POST' } : undefined,
        );
      };
      try {
        if (!take.allowed) throw rateLimited(take);
        if (!match) throw new HttpError(404, 'not_found', `Nothing is served at ${method} ${pathname.slice(0, 200)}.`);
        const request: ChannelRequest = {
          method,
          channel: segment(match[1]!),
          user: segment(match[2]!),
          query: new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)),
          key: req.headers['x-channel-key'],
          contentType: req.headers['content-type'],
          requestId,
          receivedAt,
          readBody: (limit) => readBody(req, limit),
        };
        options.handler(request).then((answer) => send(answer.status, answer.body), fail);
      } catch (error) {
        fail(error);
      }
    }
  };
}

/** A request's URL, where its query starts (-1: none), and its path. */
export function splitUrl(raw: string | undefined): { url: string; queryAt: number; pathname: string } {
  const url = raw ?? '';
  const queryAt = url.indexOf('?');
  return { url, queryAt, pathname: queryAt === -1 ? url : url.slice(0, queryAt) };
}

/** A path segment, percent-decoded. */
export function segment(raw: string): string {
  try {
    return raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    throw new HttpError(400, 'invalid_parameter', 'A part of the URL is not valid percent-encoding.');
  }
}
