import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { setUpOwner, type StudioClient } from './studio-client.ts';

/**
 * What another site's page can make a browser send with the studio's cookie, over real HTTP:
 * a form post, and a fetch with credentials. The cookie is SameSite=Strict, so a browser would
 * not even attach it; the server refuses such writes anyway (token and origin).
 */
describe('CSRF on the studio API', () => {
  let server: TestServer;
  let owner: StudioClient;
  const evil = 'https://evil.example';

  beforeAll(async () => {
    server = await startTestServer();
    owner = await setUpOwner(server.url, server.studio.setupLink!);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const tokens = async () => (await owner.get('/studio/api/tokens')).body as unknown[];

  it('when a cross-site form posts to the API with the cookie, then it is refused with csrf_failed and nothing changes', async () => {
    const before = await tokens();
    const res = await fetch(`${server.url}/studio/api/tokens`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, origin: evil, 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=pwned',
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('csrf_failed');
    expect(await tokens()).toEqual(before);
  });

  it('when a cross-origin fetch sends JSON with the cookie but without the CSRF token, or with it from a foreign origin, then both are refused', async () => {
    const before = await tokens();
    const noToken = await fetch(`${server.url}/studio/api/tokens`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, origin: evil, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pwned' }),
    });
    expect(noToken.status).toBe(403);
    expect((await noToken.json()).error.code).toBe('csrf_failed');
    // Even a page that somehow learnt the token is refused from another origin.
    const foreign = await fetch(`${server.url}/studio/api/tokens`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, origin: evil, 'x-csrf-token': owner.csrf!, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pwned' }),
    });
    expect(foreign.status).toBe(403);
    const noOriginCrossSite = await fetch(`${server.url}/studio/api/tokens`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, 'sec-fetch-site': 'cross-site', 'x-csrf-token': owner.csrf!, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pwned' }),
    });
    expect(noOriginCrossSite.status).toBe(403);
    expect(await tokens()).toEqual(before);
  });

  it('when the studio page writes with its token from its own origin, then it works', async () => {
    const res = await owner.post('/studio/api/tokens', { name: 'legit' });
    expect(res.status).toBe(201);
  });

  it('when another site posts a sign-in (login CSRF), then it is refused before the password is checked', async () => {
    const res = await fetch(`${server.url}/studio/api/login`, {
      method: 'POST',
      headers: { origin: evil, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('when the session cookie is set over plain HTTP, then it is HttpOnly, SameSite=Strict and scoped to the whole site', async () => {
    const res = await fetch(`${server.url}/studio/api/login`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery staple' }),
    });
    const cookie = res.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^studio_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
  });

  it('when the request came through a trusted proxy over HTTPS, then the cookie is __Host-studio and Secure', async () => {
    const res = await fetch(`${server.url}/studio/api/login`, {
      method: 'POST',
      headers: { origin: 'https://studio.example', 'x-forwarded-host': 'studio.example', 'x-forwarded-proto': 'https', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]).toMatch(/^__Host-studio=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
  });
});
