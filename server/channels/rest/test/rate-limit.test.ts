import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_FUNCTION_KEY, startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { restBot } from './rest-bot.ts';
import { restClient } from './rest-client.ts';

const KEY = 'kiosk-channel-key-0123456789abcdef';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`REST channel rate limit and metrics (${leg.name})`, () => {
    let server: TestServer;
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'rest-limit-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(restBot('http://127.0.0.1:9')));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        REST_CHANNEL_RATE_LIMIT: '3',
        REST_CHANNELS: JSON.stringify([{ name: 'kiosk', key: KEY }]),
      });
    });
    afterAll(async () => {
      await server?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a client goes over REST_CHANNEL_RATE_LIMIT, then 429 rate_limited with Retry-After and the message is not stored', async () => {
      const kiosk = restClient(server.url, 'kiosk', KEY);
      for (let i = 0; i < 3; i++) expect((await kiosk.missed('user-7f3a9', 0)).status).toBe(200);
      const response = await fetch(`${server.url}/api/channels/kiosk/users/user-7f3a9/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-channel-key': KEY },
        body: JSON.stringify({ type: 'text', clientId: 'late', text: 'hello' }),
      });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      expect(await server.store.getUser('user-7f3a9')).toBeNull();
    });

    it('when channel requests were answered, then /metrics counts them under the route template, never a user id', async () => {
      const metrics = await (
        await fetch(`${server.url}/metrics`, { headers: { 'x-functions-key': TEST_FUNCTION_KEY } })
      ).text();
      expect(metrics).toMatch(
        /chatbot_http_requests_total\{method="GET",route="\/api\/channels\/:channel\/users\/:user\/messages",status="200"\} 3/,
      );
      expect(metrics).not.toContain('user-7f3a9');
    });
  });
}
