import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../../../integrations/test/upstream.ts';
import {
  TEST_FUNCTION_KEY,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../../test/start-test-server.ts';
import { restBot } from './rest-bot.ts';
import { restClient, texts } from './rest-client.ts';

const KEY = 'guarded-channel-key-0123456789abcdef';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`REST channel callbacks and the outbound HTTP policy (${leg.name})`, () => {
    let callbacks: Upstream;
    let server: TestServer;
    let dir: string;

    beforeAll(async () => {
      callbacks = await startUpstream();
      dir = await mkdtemp(path.join(tmpdir(), 'rest-policy-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(restBot('http://127.0.0.1:9')));
      // INTEGRATION_ALLOWED_HOSTS unset: public hosts only, so a loopback callback URL is refused.
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        REST_CHANNELS: JSON.stringify([{ name: 'guarded', key: KEY, callbackUrl: `${callbacks.url}/bot` }]),
      });
    });
    afterAll(async () => {
      await server?.stop();
      await callbacks?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when the callback URL points at a loopback address not in INTEGRATION_ALLOWED_HOSTS, then start-up warns naming the channel and the settings to change', async () => {
      const warning = await eventually('the start-up warning', () =>
        server.logs.find((line) => line.event === 'callback_url_refused'),
      );
      expect(warning).toMatchObject({ level: 40, channel: 'guarded', host: `127.0.0.1:${callbacks.port}` });
      expect(String(warning.msg)).toContain('REST channel "guarded"');
      expect(String(warning.msg)).toContain('INTEGRATION_ALLOWED_HOSTS');
      expect(String(warning.msg)).toContain('REST_CHANNELS');
      expect(String(warning.msg)).toMatch(/private or loopback address/);
    });

    it('when such a callback is due, then nothing is sent, it is given up at once rather than retried for 20 minutes, said clearly, and the message waits for GET', async () => {
      const address = Buffer.from(JSON.stringify({ bot: 'rest-bot', user: 'hal', channelId: 'guarded' })).toString(
        'base64url',
      );
      const response = await fetch(`${server.url}/api/management/trigger/${address}/first`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(response.status).toBe(202);
      const refused = await eventually('the refused callback', () =>
        server.logs.find((line) => line.event === 'callback_refused' && line.userId === 'hal'),
      );
      expect(refused).toMatchObject({ level: 50, channel: 'guarded' });
      expect(String(refused.msg)).toMatch(/private or loopback address.*given up without retrying.*GET …\/messages/);
      const givenUp = await eventually('the job given up', () =>
        server.logs.find(
          (line) =>
            line.kind === 'rest_callback' && line.msg === 'job given up without retrying: trying again cannot help',
        ),
      );
      expect(givenUp).toMatchObject({ attempt: 1, of: 12 });
      // Dead after its first attempt: no retry is waiting.
      expect(
        server.logs.filter((line) => line.kind === 'rest_callback' && line.msg === 'job failed; will retry'),
      ).toEqual([]);
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^chatbot_job_attempts_total\{kind="rest_callback",outcome="dead"\} 1$/m);
      expect(metrics).not.toMatch(/chatbot_job_attempts_total\{kind="rest_callback",outcome="retry"\}/);
      expect(callbacks.seen).toEqual([]);
      expect(texts((await restClient(server.url, 'guarded', KEY).missed('hal', 0)).messages)).toEqual(['First.']);
      expect(server.logText()).not.toContain(KEY);
    });
  });
}
