import { createHmac, timingSafeEqual } from 'node:crypto';
import { json, startStandIn, type StandIn } from './stand-in.ts';

/**
 * A webhook receiver as docs/integrations.md tells one to check a signed webhook (the REST
 * channel's callback scheme): x-timestamp (UNIX seconds, within 5 minutes) and x-signature
 * sha256=<hex HMAC-SHA256 of "timestamp.body" keyed with the shared secret>, over the raw body.
 * Answers 200 {"received": true}; 429 with Retry-After, 401, 500 in the error modes.
 */
export async function startWebhookReceiver(options: { secret?: string; path: string }): Promise<StandIn> {
  return startStandIn('webhook', (req, mode, check) => {
    check
      .that(new URL(req.url, 'http://stand-in').pathname === options.path, `path ${req.url}, expected ${options.path}`)
      .header('content-type', /^application\/json/)
      .noHeader('authorization');
    check.jsonBody();
    if (options.secret) {
      const timestamp = req.headers['x-timestamp'];
      const signature = String(req.headers['x-signature'] ?? '');
      const fresh =
        typeof timestamp === 'string' &&
        /^\d+$/.test(timestamp) &&
        Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
      const expected = `sha256=${createHmac('sha256', options.secret)
        .update(`${String(timestamp)}.${req.body}`, 'utf8')
        .digest('hex')}`;
      check
        .that(fresh, 'x-timestamp is missing or more than 5 minutes off')
        .that(
          signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected)),
          'x-signature does not match the body',
        );
    } else {
      check.noHeader('x-signature');
    }
    if (mode === 'rate_limited')
      return (res) => json(res, 429, { error: 'too many requests' }, { 'retry-after': '10' });
    if (mode === 'unauthorized') return (res) => json(res, 401, { error: 'unauthorized' });
    if (mode === 'server_error') return (res) => json(res, 500, { error: 'internal error' });
    return (res) => json(res, 200, { received: true });
  });
}
