import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/start-test-server.ts';
import { restBot } from './rest-bot.ts';

const KEY = 'kiosk-channel-key-0123456789abcdef';

describe('REST channel request ids', () => {
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rest-request-id-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(restBot('http://127.0.0.1:9')));
    server = await startTestServer({
      BOT_DEFINITION: file,
      LOG_LEVEL: 'debug',
      REST_CHANNELS: JSON.stringify([{ name: 'kiosk', key: KEY }]),
    });
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const post = (key: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/channels/kiosk/users/user-5c1d2/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-channel-key': key, ...headers },
      body: JSON.stringify({ type: 'text', clientId: `c-${Math.random()}`, text: 'hello' }),
    });

  it('when a request is refused, then its error body, its X-Request-Id header and its log line name the same id, and the line holds no key', async () => {
    const res = await post('not-the-key-0123456789');
    expect(res.status).toBe(401);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { error: { code: string; requestId: string } }).error).toMatchObject({
      code: 'unauthorized',
      requestId: id,
    });
    expect(server.logs.filter((line) => line.requestId === id)).toEqual([
      expect.objectContaining({ event: 'http_request', status: 401 }),
    ]);
    expect(server.logText()).not.toContain(KEY);
  });

  it('when a trusted proxy names the request, then the answer and the request line carry that id', async () => {
    const given = 'edge-91b2.7';
    const res = await post(KEY, { 'x-request-id': given });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(given);
    expect(server.logs.filter((line) => line.requestId === given && line.event === 'http_request')).toEqual([
      expect.objectContaining({ status: 200, method: 'POST' }),
    ]);
  });
});
