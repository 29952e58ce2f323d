import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { MAX_PASSWORD } from '../../../studio-server/accounts/passwords.ts';
import { MAX_SECRET_BYTES } from '../../../studio-server/secrets/secret-keeper.ts';
import { StudioClient, setUpOwner } from '../../../studio-server/test/studio-client.ts';
import { Contract } from './contract.ts';
import { BOT_ID, KEY, encodeAddress, keyed, seedLogs, seedUser, startManagementServer } from './helpers.ts';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`OpenAPI contract (${leg.name})`, () => {
    let server: TestServer;
    let document: Record<string, unknown>;
    let contract: Contract;
    let owner: StudioClient;

    beforeAll(async () => {
      server = await startManagementServer({ ...leg.env(), MANAGEMENT_RATE_LIMIT: '100000' });
      const res = await fetch(`${server.url}/api/management/openapi.json`);
      document = (await res.json()) as Record<string, unknown>;
      contract = new Contract(document);
      owner = await setUpOwner(server.url, server.studio.setupLink!);
      const t = Date.UTC(2026, 5, 1);
      await seedUser(server.store, 'c-1', t, { email: 'c1@example.com', score: 7 });
      await seedUser(server.store, 'c-2', t + 1000, { name: 'Two' });
      await seedLogs(server.store, 'outgoingEmail', [
        {
          userId: 'c-1',
          timestamp: t,
          data: {
            body: 'Hi',
            from: 'bot@example.com',
            recipients: ['a@example.com'],
            replyTo: null,
            stepId: 's',
            subject: 'Hello',
          },
        },
      ]);
      await seedLogs(server.store, 'fuzzyQuestionAnswerLog', [
        {
          userId: 'c-1',
          timestamp: t,
          data: {
            intent: 'hours',
            score: 0.8,
            text: 'when open',
            stepId: 'f',
            dialogId: 'd',
            matched: true,
            otherClassifications: [],
          },
        },
      ]);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when the document is linted with the recommended rules, then it has no errors', async () => {
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
      const errors = problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
      expect(errors).toEqual([]);
      expect(document.openapi).toBe('3.1.0');
    });

    it('when the docs page is opened, then it renders swagger-ui pointing at the document', async () => {
      const page = await fetch(`${server.url}/api/management/docs/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('swagger-ui-bundle.js');
      const bundle = await fetch(`${server.url}/api/management/docs/assets/swagger-ui-bundle.js`);
      expect(bundle.status).toBe(200);
    });

    const requests: [string, string, RequestInit?][] = [
      ['GET', '/api/management/export/userData'],
      ['GET', '/api/management/export/userData?limit=1'],
      ['GET', '/api/management/export/userData?whereEmail=c1%40example.com&notEmpty=score'],
      ['GET', '/api/management/export/userDataSnapshot'],
      ['GET', '/api/management/export/nlpLog'],
      ['GET', '/api/management/export/outgoingEmail'],
      ['GET', '/api/management/export/outgoingSms'],
      ['GET', '/api/management/export/fuzzyQuestionAnswerLog'],
      ['GET', '/api/management/export/integrationLog'],
      ['GET', '/api/management/export/urlTracker?format=csv'],
      ['GET', '/api/management/export/urlTracker?format=ndjson'],
      ['GET', '/api/management/export/userData?fromTimestamp=x'],
      [
        'POST',
        `/api/management/trigger/${encodeAddress({ bot: BOT_ID, user: 'c-1', channelId: 'webchat' })}/operationFailed`,
      ],
      [
        'POST',
        `/api/management/trigger/${encodeAddress({ bot: BOT_ID, user: 'c-1', channelId: 'webchat' })}/operationFailed/clear`,
      ],
      [
        'POST',
        `/api/management/trigger/${encodeAddress({ bot: 'x', user: 'c-1', channelId: 'webchat' })}/operationFailed`,
      ],
      [
        'POST',
        `/api/trigger/${BOT_ID}/operationSucceeded?userId=c-2`,
        { body: '{"transactionId":"T"}', headers: { 'content-type': 'application/json' } },
      ],
      [
        'POST',
        `/api/trigger/${BOT_ID}/operationSucceeded?userId=c-2`,
        { body: '[]', headers: { 'content-type': 'application/json' } },
      ],
      ['GET', '/metrics'],
    ];
    for (const [method, path, init] of requests) {
      it(`when ${method} ${path.slice(0, 70)} is answered, then the response matches the document`, async () => {
        const url = `${server.url}${path}`;
        const res = await fetch(url, keyed({ method, ...init }));
        const check = await contract.check(method, url, res);
        expect(check.problems).toEqual([]);
      });
    }

    it('when the studio is signed in to and its people side is used, then every answer matches the document', async () => {
      const stranger = new StudioClient(server.url);
      const calls: [StudioClient, string, string, unknown?][] = [
        [stranger, 'GET', '/studio/api/sign-in-options'],
        [stranger, 'GET', '/studio/api/session'],
        [stranger, 'POST', '/studio/api/login', { email: 'nobody@example.com', password: 'not the password at all' }],
        [stranger, 'GET', '/studio/api/setup?token=AAAAAAAAAAAAAAAAAAAAAAAA'],
        [stranger, 'GET', '/studio/api/oidc/login'],
        [owner, 'GET', '/studio/api/session'],
        [owner, 'GET', '/studio/api/sessions'],
        [owner, 'GET', '/studio/api/accounts'],
        [owner, 'POST', '/studio/api/accounts', { email: 'edith@example.com', role: 'editor' }],
        [owner, 'PATCH', '/studio/api/accounts/no-such-account', { role: 'viewer' }],
        [owner, 'POST', '/studio/api/tokens', { name: 'ci' }],
        [owner, 'GET', '/studio/api/tokens'],
        [owner, 'PUT', '/studio/api/secrets/DOC_TEST_SECRET', { value: 'a value nobody reads back' }],
        [owner, 'GET', '/studio/api/secrets'],
        [owner, 'DELETE', '/studio/api/secrets/DOC_TEST_SECRET'],
        [owner, 'GET', '/studio/api/audit?limit=5'],
        [
          owner,
          'POST',
          '/studio/api/password',
          { currentPassword: 'not the password at all', newPassword: 'a new password of some length' },
        ],
      ];
      for (const [client, method, path, body] of calls) {
        const answer = await client.request(method, path, body);
        const url = `${server.url}${path}`;
        const check = await contract.check(
          method,
          url,
          new Response(answer.status === 204 || answer.status === 303 ? null : answer.text, {
            status: answer.status,
            headers: answer.headers,
          }),
        );
        expect(check.problems, `${method} ${path} → ${answer.status}`).toEqual([]);
      }
    });

    it('when a studio path is asked with a method it does not serve, then 405 names the methods it does (after the guard for signed-in paths)', async () => {
      const stranger = new StudioClient(server.url);
      const login = await stranger.request('PUT', '/studio/api/login', {});
      expect([login.status, login.headers.get('allow'), login.body.error.code]).toEqual([
        405,
        'POST',
        'method_not_allowed',
      ]);
      expect((await stranger.request('PATCH', '/studio/api/tokens', {})).status).toBe(401);
      const tokens = await owner.request('PATCH', '/studio/api/tokens', {});
      expect([tokens.status, tokens.headers.get('allow')]).toEqual([405, 'GET, POST']);
      const secret = await owner.request('POST', '/studio/api/secrets/SOME_NAME', {});
      expect([secret.status, secret.headers.get('allow')]).toEqual([405, 'PUT, DELETE']);
    });

    it("when the studio's bounds are documented, then they are the ones the studio enforces", () => {
      type Body = { requestBody: { content: { 'application/json': { schema: { properties: Record<string, Obj> } } } } };
      type Obj = Record<string, unknown>;
      const paths = document.paths as Record<string, Record<string, Body>>;
      const fields = (path: string, method: string) =>
        paths[path]![method]!.requestBody.content['application/json'].schema.properties;
      expect(fields('/studio/api/login', 'post').password!.maxLength).toBe(MAX_PASSWORD);
      // A secret's bound is in bytes: the document names the characters that surely fit, four bytes each at most.
      expect(fields('/studio/api/secrets/{name}', 'put').value!.maxLength).toBe(MAX_SECRET_BYTES / 4);
    });

    it('when a studio request body is documented, then no field of it is marked readOnly (a client would leave a required one out)', () => {
      const paths = document.paths as Record<string, Record<string, { requestBody?: unknown }>>;
      const bodies = Object.entries(paths)
        .filter(([path]) => path.startsWith('/studio/api/'))
        .flatMap(([, operations]) => Object.values(operations).map((operation) => operation.requestBody))
        .filter((body) => body !== undefined);
      expect(bodies.length).toBeGreaterThan(10);
      expect(bodies.filter((body) => JSON.stringify(body).includes('"readOnly"'))).toEqual([]);
    });

    it('when the key is missing, then the 401 matches the document too', async () => {
      const url = `${server.url}/api/management/export/userData`;
      const check = await contract.check('GET', url, await fetch(url));
      expect(check.problems).toEqual([]);
    });

    it('when /metrics is scraped on a loopback-only server without METRICS_TOKEN, then it is open and has the documented series', async () => {
      expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
      const text = await (await fetch(`${server.url}/metrics?code=${KEY}`)).text();
      for (const name of [
        'chatbot_http_requests_total',
        'chatbot_http_request_duration_seconds_bucket',
        'chatbot_connected_users',
        'chatbot_messages_total',
        'chatbot_integration_calls_total',
        'chatbot_integration_errors_total',
      ]) {
        expect(text).toContain(name);
      }
      expect(text).toMatch(
        /chatbot_http_requests_total\{method="GET",route="\/api\/management\/export\/:name",status="200"\} \d+/,
      );
    });
  });
}

describe('rate limiting', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startManagementServer({ MANAGEMENT_RATE_LIMIT: '3' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('when a client goes over the limit, then 429 rate_limited with Retry-After and nothing runs', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${server.url}/api/management/export/urlTracker`, keyed());
      statuses.push(last.status);
      if (last.status === 200) await last.text();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await last!.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});
