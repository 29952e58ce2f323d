import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../ports/clock.ts';
import type { Store } from '../ports/store.ts';
import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { toStepType } from './step-contract/define-step-type.ts';
import { IntegrationRuntime } from './run-integration.ts';
import type { StepContext } from './step-contract/step-type.ts';
import { captureLogger, json, readAll, startUpstream, tempDir, type Upstream } from './test/upstream.ts';

const TOKEN = 'crm-token-0c9e7b5a3f1d';

/** A bot's own module using the secrets, kinds and counters the presets use: the contract is the same for both. */
describe("a module's own secrets, failure kinds and daily counters", () => {
  let upstream: Upstream;
  let store: Store;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const logger = captureLogger();

  const crm = toStepType({
    name: 'crmLookup',
    level: 'action',
    service: 'optional',
    secrets: ['tokenSecret'],
    fixed: ['baseUrl'],
    params: {
      type: 'object',
      properties: {
        tokenSecret: { type: 'string' },
        baseUrl: { type: 'string' },
        mode: { enum: ['ok', 'refused', 'peek', 'count'], default: 'ok' },
      },
      required: ['tokenSecret', 'baseUrl'],
    },
    output: {},
    async call(ctx: StepContext) {
      const token = ctx.secret('tokenSecret')!;
      if (ctx.params.mode === 'peek') return ctx.secret('baseUrl');
      if (ctx.params.mode === 'count')
        return { first: await ctx.usage('calls').add(2), then: await ctx.usage('calls').read() };
      ctx.log.info(`calling with ${token}`, { token });
      const answer = await ctx.request({ method: 'GET', url: `${ctx.params.baseUrl as string}/echo?key=${token}` });
      if (ctx.params.mode === 'refused') throw Object.assign(new Error(`the CRM refused ${token}`), { kind: 'auth' });
      return answer.body;
    },
  });

  const make = (env: Record<string, string> = { CRM_TOKEN: TOKEN }) =>
    IntegrationRuntime.create(
      {},
      { store, clock: systemClock, logger, env, allowedHosts: ['127.0.0.1'], stepTypes: [crm] },
    );

  beforeAll(async () => {
    upstream = await startUpstream((req, res) => json(res, 200, { echoed: req.url }));
    dir = await tempDir();
    store = openSqliteStore({ file: dir.file('store.sqlite') });
  });
  afterAll(async () => {
    await upstream.close();
    await store.close();
    await dir.dispose();
  });

  const context = { userId: 'u-1', variables: {}, userData: {} };

  it('when the module reads its secret and the call echoes it, then the output is the answer but the log rows and lines hold no secret', async () => {
    const result = await make().run(
      { type: 'crmLookup', params: { tokenSecret: 'CRM_TOKEN', baseUrl: upstream.url } },
      context,
    );
    expect(result).toEqual({ ok: true, output: { echoed: `/echo?key=${TOKEN}` } });
    const rows = JSON.stringify(await readAll(store));
    expect(rows).toContain('/echo?key=[redacted]');
    expect(rows).not.toContain(TOKEN);
    expect(logger.lines.join('\n')).toContain('calling with [redacted]');
    expect(logger.lines.join('\n')).not.toContain(TOKEN);
  });

  it('when the module throws with a kind, then the step fails with that kind, its message scrubbed', async () => {
    const result = await make().run(
      { type: 'crmLookup', params: { tokenSecret: 'CRM_TOKEN', baseUrl: upstream.url, mode: 'refused' } },
      context,
    );
    expect(result).toEqual({
      ok: false,
      error: { kind: 'auth', message: 'The crmLookup step failed: the CRM refused [redacted]' },
    });
  });

  it('when the module asks for the secret of a parameter it did not list, then it gets none', async () => {
    const result = await make().run(
      { type: 'crmLookup', params: { tokenSecret: 'CRM_TOKEN', baseUrl: upstream.url, mode: 'peek' } },
      context,
    );
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'invalid_params', message: expect.stringContaining('does not list in "secrets"') },
    });
  });

  it('when the runtime has no usage counters, then a step that counts fails and says why', async () => {
    const result = await make().run(
      { type: 'crmLookup', params: { tokenSecret: 'CRM_TOKEN', baseUrl: upstream.url, mode: 'count' } },
      context,
    );
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'invalid_params', message: expect.stringContaining('without usage counters') },
    });
  });

  it('when a step templates a fixed parameter or names an unset secret, then it is refused at load naming the parameter', () => {
    expect(() =>
      make().prepare(
        { type: 'crmLookup', params: { tokenSecret: 'CRM_TOKEN', baseUrl: '{{where}}' } },
        'dialogs[0].steps[1]',
      ),
    ).toThrow(
      'dialogs[0].steps[1].params.baseUrl: must be written as it is, without {{templates}}: it names a secret or an address a secret is sent to.',
    );
    expect(() =>
      make({}).prepare({ type: 'crmLookup', params: { tokenSecret: 'CRM_TOKEN', baseUrl: upstream.url } }, 'x'),
    ).toThrow(/the secret CRM_TOKEN is not set/);
  });

  it('when a module lists a secret parameter its params do not declare, then it is refused with a sentence saying so', () => {
    expect(() =>
      toStepType({
        name: 'bad',
        level: 'action',
        secrets: ['apiKey'],
        params: { type: 'object', properties: {} },
        output: {},
        call: () => null,
      }),
    ).toThrow('step type "bad": "secrets" names "apiKey", which "params" does not declare');
  });
});
