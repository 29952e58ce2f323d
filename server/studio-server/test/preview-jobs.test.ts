import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeldCall, PreviewState } from '../../../shared/preview-protocol.ts';
import { json, startUpstream, type Upstream } from '../../integrations/test/upstream.ts';
import { eventually, startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { chat, emit, outcome, previewSocket, watch } from './preview-client.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

const TOKEN = 'sk_live_preview_jobs_4b7d2e9a';
const DAY_MS = 86_400_000;

/** A greeting, an asynchronous tracking call, a one-day wait; and a dialog with a one-second wait. */
function definition(api: string) {
  return {
    settings: { id: 'preview-jobs-bot', name: 'Preview jobs bot', startDialog: 'home' },
    integrations: { services: { crm: { baseUrl: api, auth: { type: 'bearer', tokenEnv: 'PREVIEW_JOBS_TOKEN' } } } },
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hi', type: 'message', text: 'Hi there.' },
          {
            id: 'track',
            type: 'integration',
            integration: 'http',
            service: 'crm',
            timing: 'async',
            params: { endpoint: '/events?name=greeted' },
          },
          { id: 'asked', type: 'message', text: 'We will write tomorrow.' },
          { id: 'pause', type: 'wait', duration: '1d', then: 'after' },
          { id: 'after', type: 'message', text: 'A day later.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'quick',
        steps: [
          { id: 'tick', type: 'wait', duration: '1s', then: 'done' },
          { id: 'done', type: 'message', text: 'A second later.' },
          { id: 'end', type: 'end' },
        ],
      },
    ],
  };
}

/** The preview user's id, as the widget hears it in the session event. */
function sessionOf(widget: Socket): Promise<string> {
  return new Promise((resolve) => widget.once('session', (session: { userId: string }) => resolve(session.userId)));
}

describe('the studio preview runs its asynchronous calls and wait timers', () => {
  let upstream: Upstream;
  let server: TestServer;
  let dir: string;
  let editor: StudioClient;
  const sockets: Socket[] = [];
  const open = (socket: Socket) => (sockets.push(socket), socket);

  beforeAll(async () => {
    process.env.PREVIEW_JOBS_TOKEN = TOKEN;
    upstream = await startUpstream((_req, res) => json(res, 202, { accepted: true }));
    dir = await mkdtemp(path.join(tmpdir(), 'preview-jobs-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(definition(`${upstream.url}/api`)));
    server = await startTestServer({ BOT_DEFINITION: file, INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' });
    const owner = await setUpOwner(server.url, server.studio.setupLink!);
    editor = await invite(owner, 'editor@example.com', 'editor');
    await editor.get('/studio/api/session');
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server?.stop();
    await upstream?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    delete process.env.PREVIEW_JOBS_TOKEN;
  });

  /** Starts a preview from `from` and opens its chat. */
  async function preview(from: Record<string, unknown>) {
    const control = open(previewSocket(server, editor, { control: true, csrfToken: editor.csrf }));
    expect(await outcome(control)).toBe('connected');
    const panel = watch(control);
    expect(await emit<PreviewState>(control, 'start', from)).toMatchObject({ ok: true });
    const widget = open(previewSocket(server, editor, { csrfToken: editor.csrf }));
    const userId = sessionOf(widget);
    const seen = chat(widget);
    expect(await outcome(widget)).toBe('connected');
    return { control, panel, seen, userId: await userId };
  }

  it('when the draft reaches an asynchronous call and a one-day wait, then the dialog goes on, the call is held as async with the secret masked, sending it calls the API once, and skipping the wait moves the dialog on', async () => {
    const { control, panel, seen, userId } = await preview({});
    await eventually('the dialog past the async step', () => seen.said.includes('We will write tomorrow.'));
    expect(seen.said).toEqual(['Hi there.', 'We will write tomorrow.']);

    const held = await eventually(
      'the async call held',
      () => panel.latest()?.held?.find((call) => call.async) as HeldCall | undefined,
    );
    expect(held).toMatchObject({
      kind: 'http',
      async: true,
      step: { dialogId: 'home', stepId: 'track' },
      canSendForReal: true,
    });
    expect(held.request).toMatchObject({ method: 'GET', url: `${upstream.url}/api/events?name=greeted` });
    expect(held.request?.headers).toContainEqual(['authorization', 'Bearer ‹PREVIEW_JOBS_TOKEN›']);
    expect(JSON.stringify(panel.latest())).not.toContain(TOKEN);
    expect(upstream.seen).toHaveLength(0);

    const timer = await eventually('the wait pending', () =>
      panel.latest()?.timers?.find((t) => t.id === 'home.pause'),
    );
    expect(timer.dueAt).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
    expect(panel.latest()?.position).toMatchObject({ dialogId: 'home', stepId: 'pause' });
    // The preview's timer and call are its own: none is a durable job another node could run.
    expect(await server.store.getJob(`timer:${userId}:home.pause`)).toBeNull();

    expect(await emit(control, 'answer', { callId: held.id, answer: { kind: 'send' } })).toEqual({
      ok: true,
      value: null,
    });
    await eventually('the call reported done', () =>
      panel.latest()?.activity?.some((a) => a.what === 'asyncDone' && a.ok),
    );
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]).toMatchObject({ method: 'GET', url: '/api/events?name=greeted' });
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // As with the live bot, the result of an asynchronous step does not move the conversation.
    expect(seen.said).toEqual(['Hi there.', 'We will write tomorrow.']);
    expect(panel.latest()?.held).toEqual([]);

    expect(await emit(control, 'run_timer', { timerId: 'home.pause' })).toEqual({ ok: true, value: null });
    await eventually('the dialog after the wait', () => seen.said.includes('A day later.'));
    await eventually('no wait pending', () => panel.latest()?.timers?.length === 0);
    expect(await emit(control, 'run_timer', { timerId: 'home.pause' })).toMatchObject({
      ok: false,
      error: { code: 'timer_gone' },
    });

    const saved = await emit<{ name: string; tests: number }>(control, 'save_test', { name: 'waits a day' });
    expect(saved).toMatchObject({ ok: true });
    // The wait became a day passing in the test, which `chatbot test` runs green on the version it was made on.
    const draft = (await editor.get('/studio/api/draft')).body as { baseVersionId: string };
    const plan = await editor.post('/studio/api/publish/plan', { versionId: draft.baseVersionId });
    expect(plan.body.tests).toEqual([{ name: 'waits a day', passed: true, report: '  ✓ waits a day\n' }]);
  });

  it('when the asynchronous call is answered with a failing stub, then the panel reports the failure and the conversation is unchanged', async () => {
    const { control, panel, seen } = await preview({});
    const held = await eventually(
      'the async call held',
      () => panel.latest()?.held?.find((call) => call.async) as HeldCall | undefined,
    );
    expect(
      await emit(control, 'answer', { callId: held.id, answer: { kind: 'stub', status: 503, body: '{}' } }),
    ).toEqual({ ok: true, value: null });
    const done = await eventually('the failure reported', () =>
      panel.latest()?.activity?.find((a) => a.what === 'asyncDone'),
    );
    expect(done).toMatchObject({
      what: 'asyncDone',
      ok: false,
      kind: 'status',
      step: { dialogId: 'home', stepId: 'track' },
    });
    expect(seen.said).toEqual(['Hi there.', 'We will write tomorrow.']);
  });

  it('when a short wait is due, then it runs on its own in the preview, and a restart stops a pending one', async () => {
    const { seen, panel } = await preview({ dialogId: 'quick' });
    await eventually('the wait pending', () => panel.latest()?.timers?.some((t) => t.id === 'quick.tick'));
    await eventually('the dialog after a second', () => seen.said.includes('A second later.'), 10_000);
    expect(panel.latest()?.timers).toEqual([]);

    const again = await preview({ dialogId: 'quick' });
    await eventually('the wait pending again', () => again.panel.latest()?.timers?.some((t) => t.id === 'quick.tick'));
    expect(await emit(again.control, 'stop', {})).toEqual({ ok: true, value: null });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(again.seen.said).not.toContain('A second later.');
  });
});
