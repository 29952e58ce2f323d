import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_API, type StudioApiEntry } from '../../../shared/studio-api.ts';
import { STUDIO_API_PREFIX, STUDIO_ROUTES, type StudioRouteName } from '../../../shared/studio-routes.ts';
import { startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { PASSWORD, setUpOwner, StudioClient } from './studio-client.ts';

/**
 * The studio's HTTP contract is one map (shared/studio-routes.ts, shared/studio-api.ts): every
 * route in it is served by the server and documented in the OpenAPI document with the same method
 * and path, a body the map refuses gets the studio's 400 naming the field and the rule, and an
 * answer has the shape of the map's schema (the server checks every answer against it in test).
 */
describe('the studio HTTP contract', () => {
  let server: TestServer;
  let owner: StudioClient;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await setUpOwner(server.url, server.studio.setupLink!);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** The sign-outs end every session of the account (logoutEverywhere): they go last, in the last test that signs in. */
  const names = (Object.keys(STUDIO_ROUTES) as StudioRouteName[]).sort(
    (a, b) => Number(a.startsWith('logout')) - Number(b.startsWith('logout')),
  );
  /** A path parameter filled with a value that names nothing, so that no request changes what exists. */
  const concrete = (path: string) => path.replace(/:(\w+)/g, (_, key: string) => (key === 'name' ? 'NONE' : 'v999'));
  const noSuchRoute = (res: { status: number; body: { error?: { code?: string; message?: string } } }) =>
    res.status === 404 &&
    res.body?.error?.code === 'not_found' &&
    /^(Nothing is served at|The studio API has no) /.test(res.body.error.message!);

  it('when a path is not in the map, then the server answers 404 not_found (what the next test tells apart)', async () => {
    expect(noSuchRoute(await owner.get(`${STUDIO_API_PREFIX}/no-such-route`))).toBe(true);
  });

  it('when a body breaks a rule of the map, then the answer is 400 invalid_body naming the field and the rule', async () => {
    const res = await owner.post(`${STUDIO_API_PREFIX}/tokens`, { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_body', message: 'name: give a name.' });
    const unknown = await owner.post(`${STUDIO_API_PREFIX}/tokens`, { name: 'ci', scope: 'all' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'invalid_body', message: 'unknown field "scope".' });
  });

  it('when a path of the map is asked with a method it is not served with, then the answer is 405 naming the methods it takes', async () => {
    const paths = new Map<string, Set<string>>();
    for (const { method, path } of Object.values(STUDIO_ROUTES))
      paths.set(path, (paths.get(path) ?? new Set()).add(method));
    const wrong: string[] = [];
    for (const [path, methods] of paths) {
      // The studio's export downloads are the management API's export router, which answers an unknown name first.
      if (methods.has('PATCH') || path.startsWith('/export/')) continue;
      const res = await owner.request('PATCH', `${STUDIO_API_PREFIX}${concrete(path)}`, {});
      if (res.status !== 405 || res.body?.error?.code !== 'method_not_allowed')
        wrong.push(`PATCH ${path}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('when each route of the map is requested with its method, then it is served (no 404 for an unknown route)', async () => {
    const visitor = new StudioClient(server.url);
    await visitor.login('owner@example.com', PASSWORD);
    const unserved: string[] = [];
    for (const name of names) {
      const { method, path } = STUDIO_ROUTES[name];
      const res = await owner.request(
        method,
        `${STUDIO_API_PREFIX}${concrete(path)}`,
        method === 'GET' ? undefined : {},
      );
      if (noSuchRoute(res)) unserved.push(`${name}: ${method} ${path}`);
    }
    expect(unserved).toEqual([]);
  });

  it('when each reading route without parameters is asked, then it answers the shape of its schema in the map', async () => {
    const drifted: string[] = [];
    for (const name of names) {
      const { method, path, answer } = STUDIO_API[name] as StudioApiEntry;
      if (method !== 'GET' || path.includes(':') || !answer) continue;
      const res = await owner.get(`${STUDIO_API_PREFIX}${path}`);
      // A 500 is what the server answers (in test) for an answer its schema refuses.
      if (res.status >= 500) drifted.push(`${name}: ${res.status}`);
      else if (res.status === 200 && !answer.safeParse(res.body).success) drifted.push(`${name}: the answer`);
    }
    expect(drifted).toEqual([]);
  });

  it('when the OpenAPI document is read, then every route of the map is in it with the same method and path, named by the map', async () => {
    const document = (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const missing: string[] = [];
    for (const [name, { method, path }] of Object.entries(STUDIO_ROUTES)) {
      const documented = `${STUDIO_API_PREFIX}${path.replace(/:(\w+)/g, '{$1}')}`;
      const operation = document.paths[documented]?.[method.toLowerCase()];
      if (operation?.operationId !== name) missing.push(`${name}: ${method} ${documented}`);
    }
    expect(missing).toEqual([]);
  });
});
