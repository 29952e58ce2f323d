import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/start-test-server.ts';
import { keyed } from './helpers.ts';
import { startSubscriber, type Subscriber } from './subscriber.ts';

const BOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'subscriptions-bot.json');

/** The integration client's SSRF rules, applied to a subscription's target when it is made. */
describe('subscription targets on a server without INTEGRATION_ALLOWED_HOSTS', () => {
  let server: TestServer;
  let subscriber: Subscriber;

  beforeAll(async () => {
    subscriber = await startSubscriber();
    server = await startTestServer({ BOT_DEFINITION: BOT, MANAGEMENT_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await server?.stop();
    await subscriber?.close();
  });

  const subscribe = (targetUrl: string) =>
    fetch(
      `${server.url}/api/management/subscriptions`,
      keyed({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ targetUrl, events: ['dialog.started'] }),
      }),
    );

  const port = () => new URL(subscriber.url).port;
  const privateTargets = () => [
    subscriber.url,
    `http://localhost:${port()}/hooks/chatbot`,
    'http://10.1.2.3/hook',
    'http://192.168.0.10/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:8080/hook',
    'http://0x7f000001/hook',
  ];

  it('when a target is a loopback, private or link-local address (as written, or a name such as localhost), then it is refused as forbidden_destination and nothing is stored', async () => {
    for (const target of privateTargets()) {
      const res = await subscribe(target);
      expect(res.status, target).toBe(400);
      expect(await res.json()).toMatchObject({
        error: {
          code: 'forbidden_destination',
          message: expect.stringContaining('INTEGRATION_ALLOWED_HOSTS'),
          details: { field: 'targetUrl' },
        },
      });
    }
    expect(await (await fetch(`${server.url}/api/management/subscriptions`, keyed())).json()).toEqual([]);
    expect(subscriber.received).toEqual([]);
  });

  it('when the host is listed in INTEGRATION_ALLOWED_HOSTS, then the same loopback target is accepted, and another loopback name still is not', async () => {
    const allowed = await startTestServer({ BOT_DEFINITION: BOT, INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' });
    try {
      const ok = await fetch(
        `${allowed.url}/api/management/subscriptions`,
        keyed({
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ targetUrl: subscriber.url, events: ['dialog.started'] }),
        }),
      );
      expect(ok.status).toBe(201);
      const other = await fetch(
        `${allowed.url}/api/management/subscriptions`,
        keyed({
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ targetUrl: `http://localhost:${port()}/x`, events: ['dialog.started'] }),
        }),
      );
      expect(other.status).toBe(400);
    } finally {
      await allowed.stop();
    }
  });
});
