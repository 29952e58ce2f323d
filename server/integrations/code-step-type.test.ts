import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../ports/clock.ts';
import type { Store } from '../ports/store.ts';
import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { toStepType } from './step-contract/define-step-type.ts';
import { IntegrationRuntime } from './run-integration.ts';
import type { StepContext } from './step-contract/step-type.ts';
import { captureLogger, json, readAll, startUpstream, tempDir, type Upstream } from './test/upstream.ts';

const TOKEN = 'code-step-token-81c4e2';

describe("a bot's own step type in the runtime", () => {
  let upstream: Upstream;
  let other: Upstream;
  let store: Store;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let release: () => void = () => undefined;
  let lateCall: Promise<unknown> | undefined;

  const gated = toStepType({
    name: 'gated',
    level: 'action',
    params: { type: 'object', properties: { to: { type: 'string' } } },
    output: {},
    async call({ request, params }: StepContext) {
      if (params.to === 'nowhere')
        return request({ method: 'FETCH', url: 5 } as never).catch((error: Error) => error.message);
      if (params.to) return (await request({ method: 'GET', url: params.to as string })).body;
      // Waits until the test lets it go, long after the step has timed out, then tries a call.
      await new Promise<void>((resolve) => (release = resolve));
      lateCall = request({ method: 'GET', url: 'late' }).then(
        () => 'sent',
        (error: Error) => error.message,
      );
      return null;
    },
  });

  const make = () =>
    IntegrationRuntime.create(
      { services: { crm: { baseUrl: `${upstream.url}/api/`, auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN' } } } },
      {
        store,
        clock: systemClock,
        logger: captureLogger(),
        env: { CRM_TOKEN: TOKEN },
        allowedHosts: ['127.0.0.1'],
        stepTypes: [gated],
      },
    );

  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => json(res, 200, { ok: true }));
    other = await startUpstream((_req, res) => json(res, 200, { stolen: true }));
    dir = await tempDir();
    store = openSqliteStore({ file: dir.file('store.sqlite') });
  });
  afterAll(async () => {
    await upstream.close();
    await other.close();
    await store.close();
    await dir.dispose();
  });

  it('when the module is still running after its timeout and then calls its API, then that call is refused and never sent', async () => {
    const runtime = make();
    const result = await runtime.run(
      { type: 'gated', service: 'crm', params: {}, timeoutMs: 100 },
      { userId: 'u-1', variables: {}, userData: {} },
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    release();
    await expect.poll(() => lateCall).toBeDefined();
    expect(await lateCall).toMatch(/is over .* it makes no more calls/);
    expect(upstream.seen.some((r) => r.url === '/api/late')).toBe(false);
    await runtime.close();
  });

  it("when the module asks for another host than its service's, then the call is refused and the service's token goes nowhere", async () => {
    const runtime = make();
    const result = await runtime.run(
      { type: 'gated', service: 'crm', params: { to: `${other.url}/steal` } },
      { userId: 'u-1', variables: {}, userData: {} },
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_params' } });
    expect(other.seen).toEqual([]);
    expect(JSON.stringify(await readAll(store))).not.toContain(TOKEN);
    await runtime.close();
  });

  it('when the module calls request without a method and url, then the error says what request needs', async () => {
    const runtime = make();
    const result = await runtime.run(
      { type: 'gated', service: 'crm', params: { to: 'nowhere' } },
      { userId: 'u-1', variables: {}, userData: {} },
    );
    expect(result).toEqual({
      ok: true,
      output: "The gated step's code called request() without a method (GET, POST, PUT, PATCH, DELETE) and a url.",
    });
    await runtime.close();
  });

  it.each([
    [undefined, /has no default export/],
    ['crm', /default export must be an object/],
    [{ name: 'x', level: 'action', params: {}, output: {}, call() {}, retries: 3 }, /unknown field\(s\) retries/],
    [{ name: '1st', level: 'action', params: {}, output: {}, call() {} }, /"name" must be a name/],
    [
      { name: 'x', level: 'expert', params: {}, output: {}, call() {} },
      /"level" must be "protocol", "service" or "action"/,
    ],
    [
      { name: 'x', level: 'action', params: { type: 'thing' }, output: {}, call() {} },
      /"params" is not a valid JSON Schema/,
    ],
    [{ name: 'x', level: 'action', params: {}, call() {} }, /"output" must be a JSON Schema object/],
    [
      { name: 'x', level: 'action', params: {}, output: {}, timing: 'later', call() {} },
      /"timing" must be "sync" or "async"/,
    ],
    [{ name: 'x', level: 'action', params: {}, output: {} }, /"call" must be a function/],
  ])('when a module exports %j, then the error says what to fix', (value, problem) => {
    expect(() => toStepType(value)).toThrow(problem);
  });
});
