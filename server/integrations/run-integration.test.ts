import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../ports/clock.ts';
import type { NewJob, Store } from '../ports/store.ts';
import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { IntegrationConfigError } from './http/integration-error.ts';
import { LOG_BODY_LIMIT } from './http/integration-log.ts';
import { IntegrationRuntime, type IntegrationContext, type IntegrationRuntimeDeps } from './run-integration.ts';
import { errorPolicyOf } from './step-config.ts';
import { captureLogger, closedPort, json, readAll, startUpstream, tempDir, type Upstream } from './test/upstream.ts';

const SECRET = 'sk_live_bot_wide_token_5f3a9c';
const USER_TOKEN = 'user-scoped-token-77a1b2';
const PASSWORD = 'basic-password-9e8d7c';

const context = (extra: Partial<IntegrationContext> = {}): IntegrationContext => ({
  userId: 'u-1',
  variables: { email: 'ada@example.com', first: 'Ada', products: ['3', '5'], authToken: USER_TOKEN },
  userData: { surname: 'Lovelace' },
  ...extra,
});

describe('IntegrationRuntime', () => {
  let upstream: Upstream;
  let store: Store;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let runtime: IntegrationRuntime;
  const logger = captureLogger();
  const scheduled: NewJob[] = [];

  const make = (settings: unknown, extra: Partial<IntegrationRuntimeDeps> = {}) =>
    IntegrationRuntime.create(settings, {
      store,
      clock: systemClock,
      logger,
      env: { DEMO_TOKEN: SECRET, DEMO_PASSWORD: PASSWORD },
      allowedHosts: ['127.0.0.1'],
      scheduler: { schedule: async (job) => void scheduled.push(job), cancel: async () => false },
      ...extra,
    });

  beforeAll(async () => {
    upstream = await startUpstream();
    dir = await tempDir();
    store = openSqliteStore({ file: dir.file('store.sqlite') });
  });
  afterAll(async () => {
    await upstream.close();
    await store.close();
    await dir.dispose();
  });
  beforeEach(() => {
    runtime = make({
      services: {
        demo: { baseUrl: `${upstream.url}/api`, auth: { type: 'bearer', tokenEnv: 'DEMO_TOKEN' } },
        mine: { baseUrl: `${upstream.url}/api`, auth: { type: 'bearer-user' } },
        basic: {
          baseUrl: `${upstream.url}/api`,
          auth: { type: 'basic', username: 'bot', passwordEnv: 'DEMO_PASSWORD' },
        },
      },
    });
  });
  afterEach(async () => {
    await runtime.close();
  });

  const events = [
    { id: 1, name: 'Launch party', date: '2026-12-03T18:00:00.000Z' },
    { id: 2, name: 'Webinar', date: '2026-12-10T09:30:00Z' },
  ];

  it('when listUserEvents succeeds, then the list is the output and @cards maps it to carousel cards', async () => {
    upstream.handle((req, res) => (req.url === '/api/users/u-1/events' ? json(res, 200, events) : json(res, 404, {})));
    const raw = await runtime.run(
      { type: 'listUserEvents', service: 'demo', params: { userId: '{{userId}}' } },
      context(),
    );
    expect(raw).toEqual({ ok: true, output: events });
    const cards = await runtime.run(
      { type: 'listUserEvents', service: 'demo', params: { userId: '{{userId}}' }, mapping: '@cards' },
      context(),
    );
    expect(cards).toEqual({
      ok: true,
      output: [
        { title: 'Launch party', subtitle: '3 December 2026, 18:00 UTC' },
        { title: 'Webinar', subtitle: '10 December 2026, 09:30 UTC' },
      ],
    });
    expect(upstream.seen.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('when createUser runs, then templated parameters are coerced to the schema types and the new id is the output', async () => {
    upstream.handle((_req, res) => json(res, 201, { id: 'user-42' }));
    const result = await runtime.run(
      {
        type: 'createUser',
        service: 'demo',
        params: {
          email: '{{email}}',
          name: '{{first}}',
          surname: '{{surname}}',
          interestedInProductIds: '{{products}}',
        },
        output: 'externalUserId',
      },
      context(),
    );
    expect(result).toEqual({ ok: true, output: 'user-42' });
    const sent = upstream.seen.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/api/users');
    expect(JSON.parse(sent.body)).toEqual({
      email: 'ada@example.com',
      name: 'Ada',
      surname: 'Lovelace',
      interestedInProductIds: [3, 5],
    });
    expect(sent.headers['content-type']).toBe('application/json');
  });

  it('when a parameter does not fit after templating, then the error is invalid_params and nothing is called', async () => {
    const before = upstream.seen.length;
    const result = await runtime.run(
      { type: 'createUser', service: 'demo', params: { email: '{{first}}', name: 'A', surname: 'B' } },
      context(),
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_params' } });
    expect(!result.ok && result.error.message).toMatch(/email/);
    expect(upstream.seen.length).toBe(before);
  });

  it.each([
    [404, 'status'],
    [422, 'status'],
    [500, 'status'],
    [503, 'status'],
  ])('when the server answers %i, then the error is %s with the status', async (status, kind) => {
    upstream.handle((_req, res) => json(res, status, { error: 'nope' }));
    const result = await runtime.run({ type: 'listUserEvents', service: 'demo', params: { userId: 'u-1' } }, context());
    expect(result).toMatchObject({ ok: false, error: { kind, status } });
  });

  it('when the server is slower than the step timeout, then the error is timeout', async () => {
    upstream.handle((_req, res) => void setTimeout(() => json(res, 200, events), 1500));
    const result = await runtime.run(
      { type: 'listUserEvents', service: 'demo', params: { userId: 'u-1' }, timeoutMs: 200 },
      context(),
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });

  it('when the body is not JSON, then the error is invalid_body', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>definitely not json');
    });
    const result = await runtime.run({ type: 'listUserEvents', service: 'demo', params: { userId: 'u-1' } }, context());
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_body' } });
  });

  it('when the JSON does not fit the output schema, then the error is invalid_body', async () => {
    upstream.handle((_req, res) => json(res, 200, [{ id: 1, name: 'x', date: 'next tuesday' }]));
    const result = await runtime.run({ type: 'listUserEvents', service: 'demo', params: { userId: 'u-1' } }, context());
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_body' } });
    expect(!result.ok && result.error.message).toMatch(/date-time/);
  });

  it('when nothing listens, then the error is network', async () => {
    const port = await closedPort();
    const result = await runtime.run({ type: 'http', params: { endpoint: `http://127.0.0.1:${port}/x` } }, context());
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' } });
  });

  it('when the protocol-level step runs, then endpoint, method, headers, query and body are sent and {status, headers, body} returned', async () => {
    upstream.handle((_req, res) => json(res, 200, { ok: 1 }));
    const result = await runtime.run(
      {
        type: 'http',
        params: {
          endpoint: `${upstream.url}/raw`,
          method: 'PUT',
          headers: { 'X-Trace': '{{userId}}' },
          query: { page: 2, q: 'a b' },
          body: { name: '{{first}}' },
        },
      },
      context(),
    );
    expect(result).toMatchObject({ ok: true, output: { status: 200, body: { ok: 1 } } });
    const sent = upstream.seen.at(-1)!;
    expect(sent).toMatchObject({ method: 'PUT', url: '/raw?page=2&q=a+b', body: '{"name":"Ada"}' });
    expect(sent.headers['x-trace']).toBe('u-1');
  });

  it("when a step with a service is pointed at another host, then nothing is sent and the service's token stays home", async () => {
    const before = upstream.seen.length;
    for (const endpoint of ['http://localhost:9/steal', '//localhost:9/steal', '{{target}}']) {
      const result = await runtime.run(
        { type: 'http', service: 'demo', params: { endpoint } },
        context({ variables: { target: `http://localhost:${upstream.port}/x` } }),
      );
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_params' } });
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('when the service-level step runs, then module and action map onto the service base URL', async () => {
    upstream.handle((_req, res) => json(res, 200, { done: true }));
    const result = await runtime.run(
      { type: 'service', service: 'basic', params: { module: 'crm', action: 'touch', body: { a: 1 } } },
      context(),
    );
    expect(result).toEqual({ ok: true, output: { status: 200, body: { done: true } } });
    const sent = upstream.seen.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', url: '/api/crm/touch', body: '{"a":1}' });
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`bot:${PASSWORD}`).toString('base64')}`);
  });

  it("when the service uses the user's token, then the page's authToken is sent; without it the error is auth", async () => {
    upstream.handle((_req, res) => json(res, 200, events));
    expect(
      await runtime.run({ type: 'listUserEvents', service: 'mine', params: { userId: 'u-1' } }, context()),
    ).toMatchObject({ ok: true });
    expect(upstream.seen.at(-1)?.headers.authorization).toBe(`Bearer ${USER_TOKEN}`);
    const without = await runtime.run(
      { type: 'listUserEvents', service: 'mine', params: { userId: 'u-1' } },
      context({ variables: {} }),
    );
    expect(without).toMatchObject({ ok: false, error: { kind: 'auth' } });
  });

  it('when a step is async, then a durable integration job is scheduled with filled parameters and no other variables', async () => {
    scheduled.length = 0;
    const result = await runtime.run(
      { type: 'sendTrackingEvent', service: 'mine', params: { event: 'signup', userId: '{{userId}}' } },
      context(),
    );
    expect(result).toMatchObject({ ok: true, output: null, scheduled: expect.stringMatching(/^integration:/) });
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({ kind: 'integration', maxAttempts: 6 });
    expect(scheduled[0]!.payload).toEqual({
      step: expect.objectContaining({
        type: 'sendTrackingEvent',
        timing: 'sync',
        params: { event: 'signup', userId: 'u-1' },
      }),
      context: { userId: 'u-1', variables: { authToken: USER_TOKEN }, userData: {} },
    });
  });

  it('when calls are logged, then every field is there and no secret appears in any stored row or log line', async () => {
    upstream.handle((req, res) =>
      // A careless API that echoes what it got, credentials included.
      json(res, 200, [
        {
          id: 1,
          name: `echo ${req.headers.authorization}`,
          date: '2026-12-03T18:00:00Z',
          access_token: 'leaked-access-token-123',
        },
      ]),
    );
    await runtime.run({ type: 'listUserEvents', service: 'demo', params: { userId: 'u-1' } }, context());
    await runtime.run({ type: 'listUserEvents', service: 'basic', params: { userId: 'u-1' } }, context());
    await runtime.run({ type: 'listUserEvents', service: 'mine', params: { userId: 'u-1' } }, context());
    await runtime.run(
      {
        type: 'http',
        params: {
          endpoint: `${upstream.url}/p?client_secret=${SECRET}&keep=1`,
          method: 'POST',
          headers: { 'X-Api-Key': SECRET },
          body: { password: PASSWORD, nested: { refresh_token: 'r-tok-secret-1' } },
        },
      },
      context(),
    );
    const rows = await readAll(store);
    const last = rows.at(-1)!;
    expect(last.userId).toBe('u-1');
    expect(Object.keys(last.data).sort()).toEqual([
      'duration',
      'method',
      'requestBody',
      'requestHeaders',
      'responseBody',
      'responseStatus',
      'url',
    ]);
    expect(last.data).toMatchObject({ method: 'POST', responseStatus: 200, url: expect.stringContaining('keep=1') });
    expect(typeof last.data.duration).toBe('number');
    const stored = JSON.stringify(rows) + logger.lines.join('\n');
    for (const secret of [
      SECRET,
      USER_TOKEN,
      PASSWORD,
      Buffer.from(`bot:${PASSWORD}`).toString('base64'),
      'leaked-access-token-123',
      'r-tok-secret-1',
    ]) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain('[redacted]');
  });

  it('when the response body is long, then the logged body is cut at the documented limit', async () => {
    upstream.handle((_req, res) => json(res, 200, { text: 'z'.repeat(LOG_BODY_LIMIT * 2) }));
    await runtime.run({ type: 'http', params: { endpoint: `${upstream.url}/long` } }, context());
    const body = (await readAll(store)).at(-1)!.data.responseBody as string;
    expect(body.length).toBeLessThan(LOG_BODY_LIMIT + 100);
    expect(body).toMatch(/…\[truncated, \d+ characters in all\]$/);
  });

  it('when a failed call is logged, then the row has a null status and the error kind', async () => {
    const port = await closedPort();
    await runtime.run({ type: 'http', params: { endpoint: `http://127.0.0.1:${port}/down` } }, context());
    expect((await readAll(store)).at(-1)!.data).toMatchObject({
      responseStatus: null,
      responseBody: null,
      error: { kind: 'network' },
    });
  });

  describe('at load', () => {
    it.each([
      [{ type: 'nope' }, /unknown integration step type "nope"/],
      [{ type: 'listUserEvents', params: { userId: 'x' } }, /step type "listUserEvents" calls a configured service/],
      [{ type: 'listUserEvents', service: 'ghost', params: { userId: 'x' } }, /no service named "ghost"/],
      [
        { type: 'createUser', service: 'demo', params: { email: 'not-an-email', name: 'a', surname: 'b' } },
        /params: \/email must match format "email"/,
      ],
      [{ type: 'createUser', service: 'demo', params: { email: '{{email}}' } }, /missing property "name"/],
      [
        { type: 'listUserEvents', service: 'demo', params: { userId: '{{userId}}' }, mapping: '$.{' },
        /JSONata mapping does not parse/,
      ],
      [
        { type: 'listUserEvents', service: 'demo', params: { userId: '{{userId}}' }, mapping: '@table' },
        /offers no mapping @table/,
      ],
      [
        { type: 'http', params: { endpoint: 'https://x.example' }, onError: 'explode' },
        /onError: must be fatal, dialog:<dialogId> or flag:<variable>/,
      ],
    ])('when the step is %j, then loading fails with a message that says why', (step, message) => {
      expect(() => runtime.prepare(step, 'dialogs[0].steps[1]')).toThrow(IntegrationConfigError);
      expect(() => runtime.prepare(step, 'dialogs[0].steps[1]')).toThrow(message);
    });

    it('when templated parameters are not yet known, then only the static ones are judged', () => {
      expect(() =>
        runtime.prepare({
          type: 'createUser',
          service: 'demo',
          params: { email: '{{email}}', name: 'Ada', surname: '{{surname}}', interestedInProductIds: '{{ids}}' },
        }),
      ).not.toThrow();
    });

    it('when a secret environment variable is missing, then start-up fails naming it', () => {
      expect(() =>
        make({
          services: { x: { baseUrl: 'https://api.example', auth: { type: 'bearer', tokenEnv: 'MISSING_TOKEN' } } },
        }),
      ).toThrow(/integrations\.services\.x\.auth: the environment variable MISSING_TOKEN is not set/);
    });

    it('when the error policy is parsed, then fatal, dialog and flag come apart', () => {
      expect(errorPolicyOf({ onError: 'fatal' })).toEqual({ kind: 'fatal' });
      expect(errorPolicyOf({ onError: 'dialog:sorry' })).toEqual({ kind: 'dialog', dialogId: 'sorry' });
      expect(errorPolicyOf({ onError: 'flag:eventsFailed' })).toEqual({ kind: 'flag', variable: 'eventsFailed' });
    });
  });
});
