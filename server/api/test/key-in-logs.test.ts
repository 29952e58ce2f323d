import { request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_FUNCTION_KEY as KEY,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../test/start-test-server.ts';
import { redactUrl } from '../request-log.ts';

const BOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bot.json');
const BOT_ID = 'hostile-input';

/** Every way the key could be written down in a log line. */
const percentEach = (text: string, upper: boolean) =>
  [...Buffer.from(text)]
    .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
    .join('')
    [upper ? 'toUpperCase' : 'toLowerCase']();
const KEY_FORMS = [
  KEY,
  percentEach(KEY, true),
  percentEach(KEY, false),
  Buffer.from(KEY).toString('base64'),
  Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
  Buffer.from(KEY).toString('base64url'),
  // A long enough piece of each, in case a line cut the value short.
  KEY.slice(0, 20),
  Buffer.from(KEY).toString('base64').slice(0, 24),
];

/** The key in the query string, spelt every way the server reads as `code` and some it does not. */
const QUERIES = [
  `code=${KEY}`,
  `%63ode=${KEY}`,
  `%43ODE=${KEY}`,
  `Code=${KEY}`,
  `c%6Fde=${KEY}`,
  `code=${KEY}&code=${KEY}`,
  `code=${encodeURIComponent(KEY).replace(/-/g, '%2D')}`,
  `code=${KEY.replace(/-/g, '+')}`,
];

const address = Buffer.from(JSON.stringify({ bot: BOT_ID, user: 'key-user', channelId: 'webchat' })).toString(
  'base64url',
);
const ROUTES: { method: string; path: string }[] = [
  { method: 'POST', path: `/api/management/trigger/${address}/operationFailed` },
  { method: 'POST', path: `/api/trigger/${BOT_ID}/operationFailed?userId=key-user` },
  { method: 'GET', path: '/api/management/export/userData' },
  { method: 'GET', path: '/api/management/datasets/pushed' },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/api/management/docs' },
  // 404s, inside and outside the management API.
  { method: 'GET', path: '/api/management/nothing-here' },
  { method: 'GET', path: '/nowhere' },
  // 405s, on Express and on the trigger endpoint.
  { method: 'POST', path: '/api/management/export/userData' },
  { method: 'GET', path: `/api/trigger/${BOT_ID}/operationFailed?userId=key-user` },
  { method: 'TRACE', path: '/metrics' },
];

/** A request exactly as written (fetch would refuse TRACE and may re-encode the URL). */
function send(base: string, method: string, target: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${target}`, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const withQuery = (target: string, query: string) => `${target}${target.includes('?') ? '&' : '?'}${query}`;

describe('request URLs in the log', () => {
  it('when the function key is in the query under any spelling of code, then the logged URL holds [redacted] instead', () => {
    for (const query of QUERIES) {
      const logged = redactUrl(`/api/management/export/userData?limit=1&${query}`, [KEY]);
      expect(logged).toContain('[redacted]');
      expect(logged).toContain('limit=1');
      for (const form of KEY_FORMS) expect(logged).not.toContain(form);
    }
  });

  it('when other secret parameters or the key under another name arrive, then they are hidden and ordinary ones kept', () => {
    expect(redactUrl('/x?access_token=abc&API-KEY=def&Token=ghi&userId=u1')).toBe(
      '/x?access_token=[redacted]&API-KEY=[redacted]&Token=[redacted]&userId=u1',
    );
    expect(redactUrl(`/x?userId=${KEY}&limit=1`, [KEY])).toBe('/x?[redacted]&limit=1');
    expect(redactUrl(`/api/x/${encodeURIComponent(KEY)}/y`, [KEY])).toBe('/api/x/[redacted]/y');
    expect(redactUrl('/x?%ZZcode=1&%E0%A4%A=2')).toBe('/x?%ZZcode=1&%E0%A4%A=2');
  });
});

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the function key in log lines (${leg.name})`, () => {
    let server: TestServer;
    let limited: TestServer;

    beforeAll(async () => {
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: BOT,
        LOG_LEVEL: 'trace',
        MANAGEMENT_RATE_LIMIT: '100000',
      });
      limited = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: BOT,
        LOG_LEVEL: 'trace',
        MANAGEMENT_RATE_LIMIT: '3',
      });
    });
    afterAll(async () => {
      await server?.stop();
      await limited?.stop();
    });

    it('when the key is sent in every spelling, in the header, on every kind of route, then no log line at any level holds it in any encoding', async () => {
      const statuses = new Set<number>();
      for (const route of ROUTES) {
        for (const query of QUERIES) statuses.add(await send(server.url, route.method, withQuery(route.path, query)));
        statuses.add(await send(server.url, route.method, route.path, { 'x-functions-key': KEY }));
        statuses.add(
          await send(server.url, route.method, withQuery(route.path, `userId2=${KEY}`), { 'x-functions-key': KEY }),
        );
      }
      // The routes reached every kind of answer: accepted, read, refused for a key, missing, wrong method.
      expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 202, 400, 401, 404, 405]));
      await eventually(
        'the triggered dialogs',
        async () => (await server.store.readTranscript('key-user', 0, 100)).length > 0,
      );
      const lines = server.logs.filter((line) => line.event === 'http_request');
      expect(lines.length).toBeGreaterThanOrEqual(ROUTES.length * (QUERIES.length + 2));
      expect(lines.some((line) => String(line.url).includes('[redacted]'))).toBe(true);
      for (const form of KEY_FORMS) expect(server.logText()).not.toContain(form);
    });

    it('when requests carrying the key are rate limited, then the 429 lines do not hold it either', async () => {
      const statuses: number[] = [];
      for (const query of QUERIES) {
        statuses.push(await send(limited.url, 'GET', withQuery('/api/management/export/userData', query)));
        statuses.push(
          await send(limited.url, 'POST', withQuery(`/api/trigger/${BOT_ID}/operationFailed?userId=limited`, query)),
        );
      }
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(QUERIES.length);
      for (const form of KEY_FORMS) expect(limited.logText()).not.toContain(form);
    });
  });
}
