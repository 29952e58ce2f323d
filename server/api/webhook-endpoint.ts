import type { WebhookHandler, WebhookRequest } from '../ports/webhook-request.ts';
import { TRUST_LOOPBACK, clientIp, type ProxyTrust } from '../settings/client-ip.ts';
import { HttpError } from './errors.ts';
import { queryOf, rawAnswers, segment, splitUrl, type RawEndpoint, type RawEndpointOptions } from './raw-endpoint.ts';
import { readBody } from './read-body.ts';
import { requestIdOf } from './request-id.ts';

/** The secrets never to log are the connectors'. */
export interface WebhookEndpointOptions extends RawEndpointOptions {
  readonly handler: WebhookHandler;
  readonly trustProxy?: ProxyTrust | undefined;
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
    const answers = rawAnswers({
      ...options,
      res,
      method,
      // The query may hold a handshake's token: only the path is logged.
      url: pathname,
      ip: clientIp(req, options.trustProxy),
      requestId,
      route: match ? ROUTE : 'other',
      started,
      // The connector's handler names the methods its route takes.
      allow: (error) => (typeof error.details?.allow === 'string' ? error.details.allow : undefined),
    });
    const fail = (error: unknown) => {
      if (res.headersSent) return;
      answers.fail(error);
      // A refused body is not read on: the vendor is told at once, and the socket does not wait for the rest.
      if (!req.complete) req.resume();
    };
    try {
      if (!match) throw new HttpError(404, 'not_found', `Nothing is served at ${method} ${pathname.slice(0, 200)}.`);
      const request: WebhookRequest = {
        method,
        connector: segment(match[1]!),
        query: queryOf({ url, queryAt }),
        url,
        headers: req.headers,
        requestId,
        readBody: (limit) => readBody(req, limit),
      };
      options
        .handler(request)
        .then((answer) => answers.send(answer.status, answer.body, { text: answer.text === true }), fail);
    } catch (error) {
      fail(error);
    }
    return true;
  };
}
