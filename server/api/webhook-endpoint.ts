import type { WebhookHandler, WebhookRequest } from '../ports/webhook-request.ts';
import type { Logger } from '../ports/logger.ts';
import { TRUST_LOOPBACK, clientIp, type ProxyTrust } from '../settings/client-ip.ts';
import { HttpError, errorBody, internalError } from './errors.ts';
import type { HttpMetrics } from './metrics.ts';
import { segment, splitUrl, type RawEndpoint } from './channel-endpoint.ts';
import { readBody } from './read-body.ts';
import { requestIdOf } from './request-id.ts';
import { logRequest } from './request-log.ts';

export interface WebhookEndpointOptions {
  readonly handler: WebhookHandler;
  /** Values never to log (the connectors' secrets). */
  readonly secrets: readonly string[];
  readonly trustProxy?: ProxyTrust | undefined;
  readonly logger: Logger;
  readonly metrics?: HttpMetrics | undefined;
}

const PREFIX = /^\/api\/webhooks(?:\/|$)/i;
const ROUTE_PATH = /^\/api\/webhooks\/([^/]+)\/?$/i;
const ROUTE = '/api/webhooks/:connector';

/**
 * The vendors' webhooks (`/api/webhooks/{connector}`), on node:http before Express, as the REST
 * channels are: the connector reads the raw bytes (a signature is over them, never over
 * re-serialised JSON), and the answer must leave at once. No rate limit per client: a vendor
 * posts from a few addresses, and a refused webhook is only delivered again. Every answer is
 * JSON (a handshake's echo excepted), with the catalogue's error bodies and one request log line.
 */
export function webhookEndpoint(options: WebhookEndpointOptions): RawEndpoint {
  return (req, res) => {
    const { url, queryAt, pathname } = splitUrl(req.url);
    if (!PREFIX.test(pathname)) return false;
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req, options.trustProxy ?? TRUST_LOOPBACK);
    const match = ROUTE_PATH.exec(pathname);
    const method = req.method ?? '';
    const send = (status: number, body: unknown, text = false, extra: Record<string, string> = {}) => {
      const payload = text ? String(body) : JSON.stringify(body);
      res.writeHead(status, {
        ...extra,
        'X-Request-Id': requestId,
        'Content-Type': text ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(payload),
      });
      res.end(method === 'HEAD' ? undefined : payload);
      // The query may hold a handshake's token: only the path is logged.
      logRequest(
        options.logger,
        { method, url: pathname, status, ip: clientIp(req, options.trustProxy), requestId },
        started,
        options.secrets,
      );
      options.metrics?.observe(method, match ? ROUTE : 'other', status, started);
    };
    const fail = (error: unknown) => {
      if (res.headersSent) return;
      const known = error instanceof HttpError ? error : internalError(options.logger, error, requestId);
      // A 405 says which methods the route takes (RFC 9110): the connector's handler names them.
      const allow =
        known.status === 405 && typeof known.details?.allow === 'string' ? { Allow: known.details.allow } : undefined;
      send(known.status, errorBody(known.code, known.message, known.details, requestId), false, allow);
      // A refused body is not read on: the vendor is told at once, and the socket does not wait for the rest.
      if (!req.complete) req.resume();
    };
    try {
      if (!match) throw new HttpError(404, 'not_found', `Nothing is served at ${method} ${pathname.slice(0, 200)}.`);
      const request: WebhookRequest = {
        method,
        connector: segment(match[1]!),
        query: new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)),
        url,
        headers: req.headers,
        requestId,
        readBody: (limit) => readBody(req, limit),
      };
      options.handler(request).then((answer) => send(answer.status, answer.body, answer.text === true), fail);
    } catch (error) {
      fail(error);
    }
    return true;
  };
}
