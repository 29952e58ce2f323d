import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import { startEmbeddingsServer, type EmbeddingsServer } from '../../nlp/embeddings/test/embeddings-server.ts';
import { botTexts, connectClient, eventually, startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { missesBot } from './misses-script.ts';
import { setUpOwner, type StudioClient } from './studio-client.ts';

const KEY = 'sk-misses-test-key-0123456789abcdef';

describe('the misses with sentence embeddings (EMBEDDINGS=http)', { timeout: 90_000 }, () => {
  let dir: string;
  let embeddings: EmbeddingsServer;
  let server: TestServer;
  let owner: StudioClient;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'misses-embeddings-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(missesBot()));
    embeddings = await startEmbeddingsServer({ apiKey: KEY });
    server = await startTestServer(
      {
        BOT_DEFINITION: file,
        EMBEDDINGS: 'http',
        EMBEDDINGS_URL: embeddings.url,
        EMBEDDINGS_MODEL: 'test-model',
        EMBEDDINGS_API_KEY: KEY,
        EMBEDDINGS_TIMEOUT: '500ms',
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
      },
      path.join(dir, 'data'),
    );
    owner = await setUpOwner(server.url, server.studio.setupLink!);
    const client = connectClient(server.url);
    await new Promise<Session>((resolve) => client.once('session', resolve));
    await eventually('the prompt', () => botTexts(client.items).includes('What can I do for you?'));
    await client.emitWithAck('message', { clientId: 'e1', text: 'qwxz blorp' });
    await eventually('the fallback', () => botTexts(client.items).includes('Sorry, I did not get that.'));
    client.disconnect();
  });
  afterAll(async () => {
    await server?.stop();
    await embeddings?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when the endpoint answers, then the misses are grouped, with no intent offered for an input near none, beside the quality report', async () => {
    const res = await owner.get('/studio/api/insights/misses');
    expect(res.status).toBe(200);
    expect(res.body.unprocessed.map((g: { count: number; examples: unknown[] }) => [g.count, g.examples])).toEqual([
      [1, [{ text: 'qwxz blorp', count: 1, taught: null }]],
    ]);
    // It shares no word with any utterance, so its embedding is near none either: no intent is offered.
    expect(res.body.unprocessed[0].suggestion).toEqual({ intent: null, faq: null });
    expect(res.body.quality.intents).toBe(3);
  });

  it('when the endpoint fails, then the misses still answer, on words alone, with the same groups', async () => {
    embeddings.fail(503);
    try {
      const res = await owner.get('/studio/api/insights/misses');
      expect(res.status).toBe(200);
      expect(res.body.unprocessed.map((g: { count: number }) => g.count)).toEqual([1]);
      expect(res.body.unprocessed[0].examples[0].text).toBe('qwxz blorp');
    } finally {
      embeddings.fail(200);
    }
  });
});
