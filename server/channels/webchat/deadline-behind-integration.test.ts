import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../../integrations/test/upstream.ts';
import { botTexts, connectClient, eventually, startTestServer, type TestServer } from '../../test/start-test-server.ts';

/** Longer than the turn deadline below: the bot is still waiting on the customer's API when the visitor writes again. */
const API_DELAY_MS = 2_500;

/*
 * TURN_DEADLINE bounds how long the store may take to accept a visitor's message, not how long
 * the bot's own work ahead of it takes: a synchronous integration step may wait up to 30 s on the
 * customer's API, and a visitor who writes again meanwhile ("hello?") must not be told their
 * message could not be sent.
 */
describe('a message sent while the bot waits on a slow integration', () => {
  let upstream: Upstream;
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    upstream = await startUpstream(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, API_DELAY_MS));
      json(res, 200, []);
    });
    dir = await mkdtemp(path.join(tmpdir(), 'deadline-behind-integration-'));
    const bot = {
      settings: { id: 'slow-api', name: 'Slow API bot', locale: 'en', startDialog: 'ask' },
      integrations: { services: { events: { baseUrl: `${upstream.url}/` } } },
      dialogs: [
        {
          id: 'ask',
          steps: [
            { id: 'listen', type: 'input', prompt: 'Say something.', saveTo: { variable: 'said' } },
            {
              id: 'call',
              type: 'integration',
              integration: 'listUserEvents',
              service: 'events',
              params: { userId: '{{userId}}' },
              timeoutMs: 10_000,
            },
            { id: 'done', type: 'message', text: 'Checked: {{said}}' },
            { id: 'again', type: 'goto', dialog: 'ask' },
          ],
        },
      ],
    };
    await writeFile(path.join(dir, 'bot.json'), JSON.stringify(bot));
    server = await startTestServer(
      { BOT_DEFINITION: path.join(dir, 'bot.json'), TURN_DEADLINE: '1s', INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' },
      dir,
    );
  });

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('when the visitor writes again before the API answers, longer than the turn deadline, then both messages are acked as sent and answered in order', async () => {
    const client = connectClient(server.url);
    try {
      await eventually('the prompt', () => botTexts(client.items).includes('Say something.'));
      const send = (clientId: string, text: string) =>
        new Promise<unknown>((resolve) => client.emit('message', { clientId, text }, resolve));
      expect(await send('m1', 'one')).toMatchObject({ ok: true });
      // The call to the API is under way now, holding the conversation's turn for 2.5 s.
      const second = send('m2', 'hello?');
      expect(await second).toMatchObject({ ok: true, value: { duplicate: false } });
      await eventually('both answers', () => botTexts(client.items).includes('Checked: hello?'), 15_000);
      expect(botTexts(client.items).filter((text) => text.startsWith('Checked:'))).toStrictEqual([
        'Checked: one',
        'Checked: hello?',
      ]);
      expect(server.logs.filter((line) => line.event === 'turn_deadline_passed')).toStrictEqual([]);
    } finally {
      client.disconnect();
    }
  });
});
