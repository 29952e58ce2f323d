import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_FUNCTION_KEY, type TestServer } from '../test/start-test-server.ts';

describe('request ids and probe logging', () => {
  let server: TestServer;
  let quiet: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'debug' });
    quiet = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
    await quiet?.stop();
  });

  const linesOf = (target: TestServer, requestId: string) => target.logs.filter((line) => line.requestId === requestId);

  it('when a request fails, then its error body, its X-Request-Id header and its log line name the same id', async () => {
    const res = await fetch(`${server.url}/api/management/export/nope`, {
      headers: { 'x-functions-key': TEST_FUNCTION_KEY },
    });
    expect(res.status).toBe(404);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await res.json()) as { error: { code: string; requestId: string } };
    expect(body.error).toMatchObject({ code: 'not_found', requestId: id });
    expect(linesOf(server, id!)).toEqual([expect.objectContaining({ event: 'http_request', status: 404, level: 30 })]);
  });

  it('when a trusted proxy sends X-Request-Id, then that id is used; a malformed one is replaced by a fresh id', async () => {
    const given = 'edge-7f3a.42';
    const res = await fetch(`${server.url}/api/management/export/userData`, { headers: { 'x-request-id': given } });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBe(given);
    expect(((await res.json()) as { error: { requestId: string } }).error.requestId).toBe(given);
    expect(linesOf(server, given)).toHaveLength(1);

    for (const bad of ['has space', 'x'.repeat(129), 'quote"d']) {
      const other = await fetch(`${server.url}/nope`, { headers: { 'x-request-id': bad } });
      const id = other.headers.get('x-request-id');
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(server.logText()).not.toContain(bad);
    }
  });

  it('when a trigger (answered outside Express) fails, then its body names the request id too', async () => {
    const res = await fetch(`${server.url}/api/trigger/demo/nope?userId=u1`, {
      method: 'POST',
      headers: { 'x-functions-key': TEST_FUNCTION_KEY },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const body = (await res.json()) as { error: { requestId: string } };
    expect(body.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('when probes and scrapes come, then they are logged at debug only, and LOG_LEVEL=info does not show them', async () => {
    for (const target of [server, quiet]) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        const res = await fetch(`${target.url}${path}`, { headers: { 'x-functions-key': TEST_FUNCTION_KEY } });
        expect(res.status).toBe(200);
        const lines = linesOf(target, res.headers.get('x-request-id')!);
        if (target === server)
          expect(lines).toEqual([expect.objectContaining({ event: 'http_request', url: path, level: 20 })]);
        else expect(lines).toEqual([]);
      }
    }
  });
});
