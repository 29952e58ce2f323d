import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../integrations/test/upstream.ts';
import { botTexts, connectClient, eventually, startTestServer, type TestServer } from '../test/start-test-server.ts';

/*
 * A turn that starts from a copy of the user older than the store's (the connection's last commit,
 * with a synchronous integration's turn committed after it) conflicts and runs again from a fresh
 * read. The question must then be understood for the step the user really rests on: the first try,
 * resting on the integration step, needed no FAQ match, and the retry must not reuse that.
 */
describe('a question asked right after a synchronous integration step', () => {
  let upstream: Upstream;
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => json(res, 200, [{ id: 1, name: 'Pro plan review', date: '2030-05-01T18:00:00Z' }]));
    dir = await mkdtemp(path.join(tmpdir(), 'understanding-on-retry-'));
    const bot = {
      settings: { id: 'shop', name: 'Shop bot', locale: 'en', startDialog: 'shop' },
      integrations: { services: { shop: { baseUrl: `${upstream.url}/` } } },
      faq: [{ id: 'hours', questions: ['When are you open?'], answer: 'From nine to six, Monday to Saturday.' }],
      dialogs: [
        {
          id: 'shop',
          steps: [
            { id: 'plan', type: 'input', prompt: 'Which plan do you use?', saveTo: { variable: 'plan' } },
            { id: 'call', type: 'integration', integration: 'listUserEvents', service: 'shop', params: { userId: '{{userId}}' }, output: 'events' },
            { id: 'told', type: 'message', text: 'Your plan: {{plan}}; next: {{events.0.name}}.' },
            { id: 'ask', type: 'faq', prompt: 'Ask me anything about the shop.' },
            { id: 'end', type: 'end' },
          ],
        },
      ],
    };
    await writeFile(path.join(dir, 'bot.json'), JSON.stringify(bot));
    server = await startTestServer({ BOT_DEFINITION: path.join(dir, 'bot.json'), INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' }, dir);
  });

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('when the visitor asks the FAQ step at once, then the question is answered from the FAQ', async () => {
    const client = connectClient(server.url);
    try {
      await eventually('the first question', () => botTexts(client.items).includes('Which plan do you use?'));
      expect(await client.emitWithAck('message', { clientId: 'm1', text: 'pro' })).toMatchObject({ ok: true });
      await eventually('the FAQ prompt', () => botTexts(client.items).includes('Ask me anything about the shop.'));
      expect(await client.emitWithAck('message', { clientId: 'm2', text: 'When are you open?' })).toMatchObject({ ok: true });
      await eventually('the answer', () => botTexts(client.items).includes('From nine to six, Monday to Saturday.'));
      expect(botTexts(client.items)).toStrictEqual(['Which plan do you use?', 'Your plan: pro; next: Pro plan review.', 'Ask me anything about the shop.', 'From nine to six, Monday to Saturday.']);
    } finally {
      client.disconnect();
    }
  });
});
