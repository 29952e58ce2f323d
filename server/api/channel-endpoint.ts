import type { ChannelHandler, ChannelRequest } from '../ports/channel-request.ts';
import { TRUST_LOOPBACK, clientIp, type ProxyTrust } from '../settings/client-ip.ts';
import { HttpError } from './errors.ts';
import type { RequestLimiter } from './rate-limit.ts';
import { readBody } from './read-body.ts';
import { requestIdOf } from './request-id.ts';
import { queryOf, segment, serveLimited, splitUrl, type RawEndpoint, type RawEndpointOptions } from './raw-endpoint.ts';

/** The secrets never to log are the channels' keys and the function key. */
export interface ChannelEndpointOptions extends RawEndpointOptions {
  readonly handler: ChannelHandler;
  /** REST_CHANNEL_RATE_LIMIT, counted per client over every channel path. */
  readonly limiter: RequestLimiter;
  readonly trustProxy?: ProxyTrust | undefined;
}

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
    serveLimited(
      {
        ...options,
        res,
        method,
        url,
        ip,
        requestId,
        route: match ? ROUTE : 'other',
        started,
        allow: () => 'GET, POST',
      },
      options.limiter,
      ({ send, fail }) => {
        if (!match) throw new HttpError(404, 'not_found', `Nothing is served at ${method} ${pathname.slice(0, 200)}.`);
        const request: ChannelRequest = {
          method,
          channel: segment(match[1]!),
          user: segment(match[2]!),
          query: queryOf({ url, queryAt }),
          key: req.headers['x-channel-key'],
          contentType: req.headers['content-type'],
          requestId,
          receivedAt,
          readBody: (limit) => readBody(req, limit),
        };
        options.handler(request).then((answer) => send(answer.status, answer.body), fail);
      },
    );
    return true;
  };
}
