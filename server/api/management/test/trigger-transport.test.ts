import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TestServer } from '../../../test/start-test-server.ts';
import { BOT_ID, KEY, startManagementServer } from './helpers.ts';

/** A raw HTTP request, so the body can be streamed in chunks with no Content-Length. */
function post(
  url: string,
  headers: Record<string, string>,
  chunks: Buffer[],
): Promise<{ status: number; body: { error?: { code: string } } }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'x-functions-key': KEY, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { error?: { code: string } } }),
      );
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('trigger endpoint: transport', () => {
  let server: TestServer;
  const url = (user: string) => `${server.url}/api/trigger/${BOT_ID}/operationSucceeded?userId=${user}`;
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    server = await startManagementServer({ MANAGEMENT_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('when the body is sent gzip-compressed, then it is accepted and stored as triggerData', async () => {
    const res = await post(url('gz-1'), { ...json, 'content-encoding': 'gzip' }, [
      gzipSync(JSON.stringify({ transactionId: 'T-GZ' })),
    ]);
    expect(res.status).toBe(202);
    // The user is created first and triggerData is committed with the dialog's first turn: wait for that turn.
    const user = await eventually('the dialog', async () => {
      const found = await server.store.getUser('gz-1');
      return found?.userData.triggerData === undefined ? undefined : found;
    });
    expect(user.userData.triggerData).toEqual({ transactionId: 'T-GZ' });
  });

  it('when the body uses an encoding the server does not speak, then 415 and nothing is stored', async () => {
    const res = await post(url('enc-1'), { ...json, 'content-encoding': 'compress' }, [Buffer.from('{}')]);
    expect(res.status).toBe(415);
    expect(res.body.error?.code).toBe('unsupported_media_type');
    expect(await server.store.getUser('enc-1')).toBeNull();
  });

  it('when a body with no declared length streams past 64 KiB, then 413', async () => {
    const chunk = Buffer.from(`{"blob":"${'x'.repeat(16 * 1024)}`);
    const res = await post(url('big-1'), { ...json, 'transfer-encoding': 'chunked' }, [
      chunk,
      chunk,
      chunk,
      chunk,
      chunk,
      Buffer.from('"}'),
    ]);
    expect(res.status).toBe(413);
    expect(res.body.error?.code).toBe('payload_too_large');
  });

  it('when a small compressed body inflates past 64 KiB, then 413 and nothing is stored', async () => {
    const bomb = gzipSync(JSON.stringify({ blob: 'x'.repeat(1024 * 1024) }));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await post(url('bomb-1'), { ...json, 'content-encoding': 'gzip' }, [bomb]);
    expect(res.status).toBe(413);
    expect(await server.store.getUser('bomb-1')).toBeNull();
  });

  it('when triggers are answered, then /metrics counts them under their route pattern, never the user id', async () => {
    expect((await post(url('metrics-1'), {}, [])).status).toBe(202);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { 'x-functions-key': KEY } })).text();
    expect(metrics).toMatch(
      /chatbot_http_requests_total\{method="POST",route="\/api\/trigger\/:botId\/:dialogId",status="202"\} [1-9]/,
    );
    expect(metrics).not.toContain('metrics-1');
  });
});

describe('trigger endpoint: one rate limit with the rest of the management API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startManagementServer({ MANAGEMENT_RATE_LIMIT: '3' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('when a client spends its limit on exports and triggers, then both answer 429 with Retry-After; another client behind the proxy is not affected', async () => {
    const keyed = { 'x-functions-key': KEY };
    const exportOnce = () => fetch(`${server.url}/api/management/export/urlTracker`, { headers: keyed });
    const trigger = (headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api/trigger/${BOT_ID}/operationSucceeded?userId=limited`, {
        method: 'POST',
        headers: { ...keyed, ...headers },
      });
    expect((await exportOnce()).status).toBe(200);
    expect((await trigger()).status).toBe(202);
    expect((await exportOnce()).status).toBe(200);
    const refused = await trigger();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect((await exportOnce()).status).toBe(429);
    // A reverse proxy on this machine names the client; that client has its own count.
    expect((await trigger({ 'x-forwarded-for': '203.0.113.7' })).status).toBe(202);
  });
});
