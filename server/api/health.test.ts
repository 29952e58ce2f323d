import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/start-test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('health and readiness', () => {
  it('when the process is up, then /healthz answers ok', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('when the store answers, then /readyz says ready; when it is gone, then 503 with a code', async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', store: 'reachable' });
    await server.store.close();
    const gone = await fetch(`${server.url}/readyz`);
    expect(gone.status).toBe(503);
    expect(await gone.json()).toMatchObject({ status: 'unavailable', error: { code: 'store_unreachable' } });
  });

  it('when an unknown path is asked for, then 404 JSON with a code and no stack', async () => {
    const res = await fetch(`${server.url}/nope?code=sekrit-key`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('not_found');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('when requests are served, then each writes one log line with the function key redacted', async () => {
    await fetch(`${server.url}/widget.js?code=very-secret-function-key`);
    const lines = server.logs.filter((l) => l.event === 'http_request' && String(l.url).startsWith('/widget.js?'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'GET', url: '/widget.js?code=[redacted]' });
    expect(server.logText()).not.toContain('very-secret-function-key');
  });
});
