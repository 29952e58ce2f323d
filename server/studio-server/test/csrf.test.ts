import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { setUpOwner, StudioClient } from './studio-client.ts';

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
      headers: {
        cookie: owner.cookie!,
        origin: evil,
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
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
      headers: {
        cookie: owner.cookie!,
        origin: evil,
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
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
      headers: {
        cookie: owner.cookie!,
        'sec-fetch-site': 'cross-site',
        'x-csrf-token': owner.csrf!,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'pwned' }),
    });
    expect(noOriginCrossSite.status).toBe(403);
    expect(await tokens()).toEqual(before);
  });

  it('when a cookie write carries the right CSRF token but neither Origin nor Sec-Fetch-Site, then it is refused with csrf_failed and nothing changes', async () => {
    const before = await tokens();
    const res = await fetch(`${server.url}/studio/api/tokens`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, 'x-csrf-token': owner.csrf!, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'no origin at all' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('csrf_failed');
    expect(await tokens()).toEqual(before);
  });

  it('when a page without Origin says Sec-Fetch-Site: same-origin, then its write with the token works', async () => {
    const res = await fetch(`${server.url}/studio/api/tokens`, {
      method: 'POST',
      headers: {
        cookie: owner.cookie!,
        'x-csrf-token': owner.csrf!,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'same origin by fetch metadata' }),
    });
    expect(res.status).toBe(201);
  });

  it('when sign-in attempts for one account go over the limit, then the 429 says in Retry-After how many seconds to wait', async () => {
    const guesser = new StudioClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await guesser.login('guessed@example.com', `wrong guess number ${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    const refused = guesser.answers.at(-1)!;
    expect([refused.status, refused.body.error.code]).toEqual([429, 'rate_limited']);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
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
      headers: {
        origin: 'https://studio.example',
        'x-forwarded-host': 'studio.example',
        'x-forwarded-proto': 'https',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]).toMatch(
      /^__Host-studio=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/,
    );
  });
});
