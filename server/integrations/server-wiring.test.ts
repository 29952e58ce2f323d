import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_FUNCTION_KEY, type TestServer } from '../test/start-test-server.ts';

describe('integration layer in the running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('when a dataset push arrives without the key, then 401 comes before anything else', async () => {
    const response = await fetch(`${server.url}/api/management/datasets/nowhere`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('when a push names a dataset the bot does not have, then 404 with the catalogue body', async () => {
    const response = await fetch(`${server.url}/api/management/datasets/nowhere`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-functions-key': TEST_FUNCTION_KEY },
      body: '[]',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: 'not_found', message: expect.stringContaining('no dataset named "nowhere"') },
    });
  });

  it('when a dataset endpoint is asked with a method it does not serve, then 405 names the methods it does in Allow', async () => {
    const headers = { 'x-functions-key': TEST_FUNCTION_KEY };
    const replace = await fetch(`${server.url}/api/management/datasets/places`, { method: 'DELETE', headers });
    expect(replace.status).toBe(405);
    expect(replace.headers.get('allow')).toBe('GET, HEAD, PUT, PATCH');
    expect(await replace.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
    const refresh = await fetch(`${server.url}/api/management/datasets/places/refresh`, { headers });
    expect(refresh.status).toBe(405);
    expect(refresh.headers.get('allow')).toBe('POST');
  });

  it("when the demo bot runs, then the integration runtime knows every built-in step type, the presets and the bot's own", () => {
    expect(server.integrations.registry.names()).toEqual([
      'http',
      'service',
      'listUserEvents',
      'createUser',
      'sendTrackingEvent',
      'queryDataset',
      'sendWebhook',
      'googleSheetsAppendRow',
      'googleSheetsLookupRows',
      'slackPostMessage',
      'hubspotUpsertContact',
      'zendeskCreateTicket',
      'chatCompletion',
      'loyaltyPoints',
    ]);
  });
});
