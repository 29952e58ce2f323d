import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../test/start-test-server.ts';

/** A definition file in a temp folder; the server is started on it and must refuse. */
describe('integration steps checked at start-up', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bad-integrations-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function startOn(definition: unknown, env: Record<string, string> = {}): Promise<string> {
    const file = path.join(dir, `bot-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(
      file,
      JSON.stringify({ settings: { id: 'b', name: 'B', startDialog: 'main' }, ...(definition as object) }),
    );
    const dataDir = await mkdtemp(path.join(dir, 'data-'));
    try {
      const server = await startTestServer({ BOT_DEFINITION: file, ...env }, dataDir);
      await server.stop();
      return 'started';
    } catch (error) {
      return (error as Error).message;
    }
  }

  it('when integration steps are wrong, then start-up is refused listing every step by its path and problem', async () => {
    const message = await startOn({
      integrations: { services: { crm: { baseUrl: 'https://crm.example.com/api/' } } },
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'a', type: 'integration', integration: 'carrierPigeon' },
            { id: 'b', type: 'integration', integration: 'listUserEvents', service: 'ghost', params: { userId: 'x' } },
            {
              id: 'c',
              type: 'integration',
              integration: 'createUser',
              service: 'crm',
              params: { email: 'not-an-email', name: 'A', surname: 'B' },
            },
            {
              id: 'd',
              type: 'integration',
              integration: 'listUserEvents',
              service: 'crm',
              params: { userId: 'x' },
              mapping: '@nope',
            },
          ],
        },
      ],
    });
    expect(message).toContain('dialogs[0].steps[0].integration: unknown integration step type "carrierPigeon"');
    expect(message).toContain('dialogs[0].steps[1].service: no service named "ghost" (configured: crm)');
    expect(message).toMatch(/dialogs\[0\]\.steps\[2\]\.params: .*email/);
    expect(message).toContain('dialogs[0].steps[3].mapping: step type "listUserEvents" offers no mapping @nope');
  });

  it('when the integration settings name a missing secret or a bad field, then start-up is refused naming its definition path', async () => {
    const steps = [{ id: 'a', type: 'end' }];
    const secret = await startOn({
      integrations: {
        services: {
          crm: { baseUrl: 'https://crm.example.com/', auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN_UNSET_FOR_TEST' } },
        },
      },
      dialogs: [{ id: 'main', steps }],
    });
    expect(secret).toMatch(/integrations\.services\.crm\.auth.*CRM_TOKEN_UNSET_FOR_TEST/);
    const field = await startOn({
      integrations: { services: { crm: { baseUrl: 'ftp://crm', auth: { type: 'none' } } } },
      dialogs: [{ id: 'main', steps }],
    });
    expect(field).toMatch(/^Bot definition .* is invalid:\n {2}- integrations\.services\.crm\.baseUrl: /);
    const env = await startOn(
      {
        integrations: { services: { crm: { baseUrl: 'https://crm.example.com/', baseUrlEnv: 'CRM_URL_FOR_TEST' } } },
        dialogs: [{ id: 'main', steps }],
      },
      {},
    );
    expect(env).toBe('started');
  });
});
