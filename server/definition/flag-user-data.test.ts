import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../integrations/test/upstream.ts';
import { TEST_FUNCTION_KEY, connectClient, eventually, startTestServer } from '../test/start-test-server.ts';

describe('an integration flag named after a declared user-data field', () => {
  it('when the call fails, then the flag and its error kind are saved to user data and the userData export shows them', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'flag-bot-'));
    const file = path.join(dir, 'bot.json');
    const port = await closedPort();
    await writeFile(
      file,
      JSON.stringify({
        settings: { id: 'flags', name: 'Flags', startDialog: 'main' },
        userDataFields: ['apiFlag', 'apiFlagError'],
        dialogs: [
          {
            id: 'main',
            steps: [
              { id: 'ask', type: 'input', prompt: 'Anything?', saveTo: { variable: 'said' } },
              {
                id: 'call',
                type: 'integration',
                integration: 'http',
                params: { endpoint: `http://127.0.0.1:${port}/status` },
                onError: 'flag:apiFlag',
              },
              { id: 'done', type: 'message', text: 'Checked.' },
            ],
          },
        ],
      }),
    );
    const server = await startTestServer({ BOT_DEFINITION: file, INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' });
    const client = connectClient(server.url);
    try {
      await eventually('the prompt', () => client.items.some((i) => i.from === 'bot'));
      await client.emitWithAck('message', { clientId: 'c1', text: 'hello' });
      await eventually('the answer after the failed call', () =>
        client.items.some((i) => i.from === 'bot' && JSON.stringify(i.message).includes('Checked.')),
      );
      const res = await fetch(`${server.url}/api/management/export/userData`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      const rows = (await res.json()) as Record<string, unknown>[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ apiFlag: true, apiFlagError: 'network' });
    } finally {
      client.close();
      await server.stop();
    }
  });
});
