import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../ports/store.ts';
import { openSqliteStore } from '../../stores/sqlite/sqlite-store.ts';
import { IntegrationRuntime } from '../run-integration.ts';
import { captureLogger, json, readAll, startUpstream, tempDir, testClock, type Upstream } from '../test/upstream.ts';

const CLIENT_SECRET = 'client-secret-value-31ab';

describe('OAuth 2.0 client credentials', () => {
  let api: Upstream;
  let issuer: Upstream;
  let store: Store;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let issued = 0;
  let valid = new Set<string>();
  let expiresIn = 3600;
  const clock = testClock();
  const logger = captureLogger();

  const runtime = () =>
    IntegrationRuntime.create(
      {
        services: {
          crm: {
            baseUrl: `${api.url}/v1`,
            auth: {
              type: 'oauth2-client-credentials',
              tokenUrl: `${issuer.url}/oauth/token`,
              clientId: 'bot-client',
              clientSecretEnv: 'CRM_SECRET',
              scope: 'events.read',
            },
          },
          // Same credential: must share one token (and one request in flight).
          crm2: {
            baseUrl: `${api.url}/v2`,
            auth: {
              type: 'oauth2-client-credentials',
              tokenUrl: `${issuer.url}/oauth/token`,
              clientId: 'bot-client',
              clientSecretEnv: 'CRM_SECRET',
              scope: 'events.read',
            },
          },
        },
      },
      { store, clock, logger, env: { CRM_SECRET: CLIENT_SECRET }, allowedHosts: ['127.0.0.1'] },
    );
  const step = (service = 'crm') => ({ type: 'listUserEvents', service, params: { userId: 'u-1' } });
  const ctx = { userId: 'u-1', variables: {}, userData: {} };

  beforeAll(async () => {
    dir = await tempDir();
    store = openSqliteStore({ file: dir.file('s.sqlite') });
    issuer = await startUpstream();
    api = await startUpstream();
  });
  afterAll(async () => {
    await api.close();
    await issuer.close();
    await store.close();
    await dir.dispose();
  });
  beforeEach(() => {
    issued = 0;
    valid = new Set();
    expiresIn = 3600;
    issuer.seen.length = 0;
    api.handle((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !valid.has(token)) return json(res, 401, { error: 'invalid_token' });
      json(res, 200, [{ id: 1, name: 'E', date: '2026-12-03T18:00:00Z' }]);
    });
    issuer.handle(async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 30)); // long enough for concurrent callers to pile up
      const basic = Buffer.from(`bot-client:${CLIENT_SECRET}`).toString('base64');
      if (req.headers.authorization !== `Basic ${basic}` || !req.body.includes('grant_type=client_credentials'))
        return json(res, 401, { error: 'invalid_client' });
      const token = `access-token-${++issued}-abcdef`;
      valid.add(token);
      json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: expiresIn });
    });
  });

  it('when many calls start at once with no token, then exactly one token request is made and all succeed', async () => {
    const integrations = runtime();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => integrations.run(step(i % 2 ? 'crm' : 'crm2'), ctx)),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(issuer.seen).toHaveLength(1);
    expect(issuer.seen[0]!.body).toContain('scope=events.read');
    await integrations.close();
  });

  it('when the token is cached, then later calls reuse it until shortly before it expires, then a new one is fetched', async () => {
    expiresIn = 600;
    const integrations = runtime();
    expect((await integrations.run(step(), ctx)).ok).toBe(true);
    clock.advance(500_000);
    expect((await integrations.run(step(), ctx)).ok).toBe(true);
    expect(issuer.seen).toHaveLength(1);
    clock.advance(75_000); // 575 s of 600: inside the renewal margin (30 s)
    expect((await integrations.run(step(), ctx)).ok).toBe(true);
    expect(issuer.seen).toHaveLength(2);
    await integrations.close();
  });

  it('when the API answers 401 to a cached token, then the token is refreshed and the call retried once', async () => {
    const integrations = runtime();
    expect((await integrations.run(step(), ctx)).ok).toBe(true);
    valid.clear(); // revoked on the server's side before its expiry
    const before = api.seen.length;
    expect(await integrations.run(step(), ctx)).toMatchObject({ ok: true });
    expect(issuer.seen).toHaveLength(2);
    expect(api.seen.length - before).toBe(2);
    await integrations.close();
  });

  it('when the API keeps answering 401, then there is only one retry and the error is status 401', async () => {
    const integrations = runtime();
    api.handle((_req, res) => json(res, 401, { error: 'nope' }));
    const before = api.seen.length;
    expect(await integrations.run(step(), ctx)).toMatchObject({ ok: false, error: { kind: 'status', status: 401 } });
    expect(api.seen.length - before).toBe(2);
    await integrations.close();
  });

  it('when the token endpoint refuses the client, then the error is auth', async () => {
    issuer.handle((_req, res) => json(res, 401, { error: 'invalid_client' }));
    const integrations = runtime();
    expect(await integrations.run(step(), ctx)).toMatchObject({ ok: false, error: { kind: 'auth' } });
    await integrations.close();
  });

  it('when token requests are logged, then neither the client secret nor any access token is stored', async () => {
    const integrations = runtime();
    expect((await integrations.run(step(), ctx)).ok).toBe(true);
    await integrations.close();
    const stored = JSON.stringify(await readAll(store)) + logger.lines.join('\n');
    expect(stored).toContain('/oauth/token');
    expect(stored).not.toContain(CLIENT_SECRET);
    expect(stored).not.toContain(Buffer.from(`bot-client:${CLIENT_SECRET}`).toString('base64'));
    expect(stored).not.toMatch(/access-token-\d+-abcdef/);
  });
});
