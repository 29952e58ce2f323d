import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../../../integrations/test/upstream.ts';
import { eventually, startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { restBot } from './rest-bot.ts';
import { restClient, texts } from './rest-client.ts';

const KEY = 'slow-channel-key-0123456789abcdef';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`REST channel answer bound (${leg.name})`, () => {
    let upstream: Upstream;
    let callbacks: Upstream;
    let server: TestServer;
    let dir: string;
    /** The customer's API holds its answer until the test lets it go. */
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));

    beforeAll(async () => {
      upstream = await startUpstream(async (_req, res) => {
        await held;
        json(res, 200, [{ id: 1, name: 'Meetup', date: '2030-05-01T18:00:00Z' }]);
      });
      callbacks = await startUpstream();
      dir = await mkdtemp(path.join(tmpdir(), 'rest-slow-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(restBot(upstream.url)));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        REST_CHANNEL_ANSWER_WAIT: '300ms',
        REST_CHANNELS: JSON.stringify([{ name: 'slow', key: KEY, callbackUrl: `${callbacks.url}/bot` }]),
      });
    });
    afterAll(async () => {
      release();
      await server?.stop();
      await upstream?.close();
      await callbacks?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a sync step outlasts REST_CHANNEL_ANSWER_WAIT, then the answer holds what is there and the rest is called back once', async () => {
      const answer = await restClient(server.url, 'slow', KEY).post('gil', { type: 'event', clientId: 'g1', event: 'startDialog', dialogId: 'events' });
      expect(answer.status).toBe(200);
      expect(answer.body.complete).toBe(false);
      expect(texts(answer.body.messages)).toEqual(['Welcome.', 'Your name?']);
      release();
      const called = await eventually('the callback', () => callbacks.seen.find((request) => request.body.includes('Meetup')));
      const body = JSON.parse(called.body) as { messages: { seq: number; message: { text: string } }[] };
      expect(body.messages.map((item) => item.message.text)).toEqual(['Next event: Meetup.']);
      expect(body.messages[0]!.seq).toBeGreaterThan(answer.body.messages.at(-1)!.seq);
      expect(callbacks.seen.filter((request) => request.body.includes('Welcome.'))).toEqual([]);
    });
  });
}
