import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallAnswer, HeldCall, PreviewActivity } from '../../../shared/preview-protocol.ts';
import { systemClock } from '../../ports/clock.ts';
import type { Store } from '../../ports/store.ts';
import { openSqliteStore } from '../../stores/sqlite/sqlite-store.ts';
import { IntegrationRuntime } from '../../integrations/run-integration.ts';
import { captureLogger, json, startUpstream, tempDir, type Upstream } from '../../integrations/test/upstream.ts';
import { dryRunGate, dryRunMailer, rehearse, type DryRunDeps } from './dry-run.ts';
import { AbandonedCall, HeldCalls } from './held-calls.ts';
import { namedSecrets } from './mask.ts';

const TOKEN = 'sk_live_preview_token_4c1d9e';

/** A preview's dry-run parts around a real integration layer whose every call passes the dry-run gate. */
describe('dry runs of a preview', () => {
  let upstream: Upstream;
  let store: Store;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let runtime: IntegrationRuntime;
  let holds: HeldCalls;
  let activity: PreviewActivity[];
  let deps: DryRunDeps;
  const env = { CRM_TOKEN: TOKEN };
  const settings = (url: string) => ({
    services: { crm: { baseUrl: `${url}/api`, auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN' } } },
  });

  beforeAll(async () => {
    upstream = await startUpstream((req, res) => json(res, 200, { real: true, echoed: req.headers.authorization }));
    dir = await tempDir();
    store = openSqliteStore({ file: dir.file('store.sqlite') });
  });
  afterAll(async () => {
    await upstream.close();
    await store.close();
    await dir.dispose();
  });
  beforeEach(() => {
    upstream.seen.length = 0;
    activity = [];
    holds = new HeldCalls(() => undefined);
    deps = {
      holds,
      secrets: () => namedSecrets(settings(upstream.url), env),
      activity: (entry) => activity.push(entry),
      now: () => 1,
    };
    runtime = IntegrationRuntime.create(settings(upstream.url), {
      store,
      clock: systemClock,
      logger: captureLogger(),
      env,
      allowedHosts: ['127.0.0.1'],
      gate: dryRunGate,
    });
  });
  afterEach(async () => {
    holds.abandonAll();
    await runtime.close();
  });

  const step = { dialogId: 'main', stepId: 'lookup' };
  const call = () =>
    runtime.run(
      { type: 'http', service: 'crm', params: { endpoint: '/contacts?email=ada%40example.com' } },
      { userId: 'u-1', variables: {}, userData: {} },
    );

  /** Starts the step, waits until its call is held, and answers it. */
  async function answerFirst(
    answer: CallAnswer,
  ): Promise<{ held: HeldCall; result: Awaited<ReturnType<typeof call>> }> {
    const running = rehearse(deps, { step, async: false }, call);
    await expect.poll(() => holds.list().length).toBe(1);
    const held = holds.list()[0]!;
    expect(holds.answer(held.id, answer)).toBe('answered');
    return { held, result: await running };
  }

  it('when a step calls a Bearer service, then the call is held with the request shown and the secret masked by name, and nothing goes out until answered', async () => {
    const running = rehearse(deps, { step, async: false }, call);
    await expect.poll(() => holds.list().length).toBe(1);
    const held = holds.list()[0]!;
    expect(held).toMatchObject({ kind: 'http', step, async: false, canSendForReal: true });
    expect(held.request?.method).toBe('GET');
    expect(held.request?.url).toBe(`${upstream.url}/api/contacts?email=ada%40example.com`);
    expect(held.request?.headers).toContainEqual(['authorization', 'Bearer ‹CRM_TOKEN›']);
    expect(JSON.stringify(held)).not.toContain(TOKEN);
    expect(upstream.seen).toHaveLength(0);
    holds.answer(held.id, { kind: 'stub', status: 200, body: '{"id":7}' });
    await running;
  });

  it('when the author answers with a stub, then the step gets that answer and the API never hears of it', async () => {
    const { result } = await answerFirst({ kind: 'stub', status: 200, body: '{"id":7,"name":"Ada"}' });
    expect(result).toMatchObject({ ok: true, output: { status: 200, body: { id: 7, name: 'Ada' } } });
    expect(upstream.seen).toHaveLength(0);
    expect(activity).toContainEqual({ at: 1, what: 'answered', kind: 'http', step, answer: 'stub', status: 200 });
  });

  it('when the author sends it for real, then the API gets the real credential once and the answer shown to the author is masked', async () => {
    const { result } = await answerFirst({ kind: 'send' });
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result).toMatchObject({ ok: true, output: { status: 200, body: { real: true } } });
    const shown = activity.find((entry) => entry.what === 'realResponse');
    expect(shown).toMatchObject({ status: 200 });
    expect(JSON.stringify(activity)).not.toContain(TOKEN);
    expect(JSON.stringify(activity)).toContain('‹CRM_TOKEN›');
  });

  it('when a stub answers with an error status, then the step fails as it would on that answer from the API', async () => {
    const { result } = await answerFirst({ kind: 'stub', status: 503, body: '{"error":"down"}' });
    expect(result.ok).toBe(false);
    expect(upstream.seen).toHaveLength(0);
  });

  it('when the preview ends while a call waits, then the step stops and nothing is sent', async () => {
    const running = rehearse(deps, { step, async: false }, call);
    await expect.poll(() => holds.list().length).toBe(1);
    holds.abandonAll();
    await expect(running).rejects.toBeInstanceOf(AbandonedCall);
    expect(upstream.seen).toHaveLength(0);
    await expect(
      holds.hold({ kind: 'sms', step: null, async: false, sms: { to: '+1', text: 'x' }, canSendForReal: false }),
    ).rejects.toBeInstanceOf(AbandonedCall);
  });

  it('when an answer does not fit the call or its id is gone, then it is refused and the call still waits', async () => {
    const running = rehearse(deps, { step, async: false }, call);
    await expect.poll(() => holds.list().length).toBe(1);
    const held = holds.list()[0]!;
    expect(holds.answer(held.id, { kind: 'skip' })).toBe('unfit');
    expect(holds.answer('no-such-call', { kind: 'send' })).toBe('gone');
    expect(holds.list()).toHaveLength(1);
    holds.answer(held.id, { kind: 'stub', status: 200, body: '{}' });
    await running;
  });

  it('when a call is made outside a step (a dataset refresh), then the gate refuses it instead of sending', async () => {
    await expect(
      dryRunGate.send({ url: `${upstream.url}/x`, method: 'GET' }, async () => ({
        status: 200,
        headers: {},
        body: Buffer.alloc(0),
        url: '',
      })),
    ).rejects.toThrow(/outside a step/);
  });

  it('when an email step runs and the server has no mailer, then the mail is shown, cannot be sent for real, and "skip" counts as sent', async () => {
    const mailer = dryRunMailer(undefined, deps);
    const sending = mailer.send({
      to: ['ada@example.com'],
      cc: [],
      replyTo: null,
      subject: 'Your code',
      text: `token ${TOKEN}`,
    });
    await expect.poll(() => holds.list().length).toBe(1);
    const held = holds.list()[0]!;
    expect(held).toMatchObject({
      kind: 'email',
      canSendForReal: false,
      email: { subject: 'Your code', body: 'token ‹CRM_TOKEN›' },
    });
    expect(holds.answer(held.id, { kind: 'send' })).toBe('unfit');
    expect(holds.answer(held.id, { kind: 'skip' })).toBe('answered');
    await expect(sending).resolves.toEqual({ messageId: 'preview' });
  });
});
