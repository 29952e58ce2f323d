import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeldCall, PreviewState } from '../../../shared/preview-protocol.ts';
import type { Role } from '../../ports/roles.ts';
import { json, startUpstream, type Upstream } from '../../integrations/test/upstream.ts';
import { eventually, startTestServer, TEST_FUNCTION_KEY, type TestServer } from '../../test/start-test-server.ts';
import { chat, emit, outcome, previewSocket, watch } from './preview-client.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

const TOKEN = 'sk_live_preview_socket_9f3e1a7c';

function definition(api: string) {
  return {
    settings: { id: 'preview-bot', name: 'Preview bot', startDialog: 'home' },
    userDataFields: ['email'],
    integrations: { services: { crm: { baseUrl: api, auth: { type: 'bearer', tokenEnv: 'PREVIEW_CRM_TOKEN' } } } },
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hi', type: 'message', text: 'Hi there.' },
          { id: 'ask', type: 'input', prompt: 'Your email?', saveTo: { userData: 'email' } },
          {
            id: 'lookup',
            type: 'integration',
            integration: 'http',
            service: 'crm',
            params: { endpoint: '/contacts?email={{email}}' },
            output: 'contact',
          },
          { id: 'found', type: 'message', text: 'Found {{contact.body.name}}.' },
          { id: 'end', type: 'end' },
        ],
      },
    ],
  };
}

describe('the studio preview over its socket', () => {
  let upstream: Upstream;
  let server: TestServer;
  let dir: string;
  const as = {} as Record<Role, StudioClient>;
  const sockets: Socket[] = [];
  const open = (socket: Socket) => (sockets.push(socket), socket);

  beforeAll(async () => {
    process.env.PREVIEW_CRM_TOKEN = TOKEN;
    upstream = await startUpstream((req, res) =>
      json(res, 200, { name: 'Real Ada', auth: req.headers.authorization === `Bearer ${TOKEN}` }),
    );
    dir = await mkdtemp(path.join(tmpdir(), 'preview-socket-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(definition(`${upstream.url}/api`)));
    server = await startTestServer({ BOT_DEFINITION: file, INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' });
    as.owner = await setUpOwner(server.url, server.studio.setupLink!);
    for (const role of ['editor', 'analyst', 'viewer'] as const) {
      as[role] = await invite(as.owner, `${role}@example.com`, role);
      await as[role].get('/studio/api/session');
    }
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server?.stop();
    await upstream?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    delete process.env.PREVIEW_CRM_TOKEN;
  });

  it('when a viewer or an analyst opens the preview, or an editor without the CSRF token or from another origin, then the handshake is refused', async () => {
    for (const role of ['viewer', 'analyst'] as const) {
      expect(await outcome(open(previewSocket(server, as[role], { control: true, csrfToken: as[role].csrf })))).toBe(
        'not_allowed',
      );
    }
    expect(await outcome(open(previewSocket(server, as.editor, { control: true })))).toBe('not_allowed');
    expect(await outcome(open(previewSocket(server, as.editor, { control: true, csrfToken: 'not-the-token' })))).toBe(
      'not_allowed',
    );
    expect(
      await outcome(
        open(previewSocket(server, as.editor, { control: true, csrfToken: as.editor.csrf }, 'https://shop.example')),
      ),
    ).toBe('not_allowed');
    const anonymous = { cookie: undefined, csrf: undefined } as unknown as StudioClient;
    expect(await outcome(open(previewSocket(server, anonymous, { control: true, csrfToken: 'x' })))).toBe(
      'unauthorized',
    );
  });

  it('when the draft calls an API with a Bearer secret, then the call is held with the secret masked, a stub answer continues the dialog, and nothing reached the API', async () => {
    const control = open(previewSocket(server, as.editor, { control: true, csrfToken: as.editor.csrf }));
    expect(await outcome(control)).toBe('connected');
    const panel = watch(control);
    const started = await emit<PreviewState>(control, 'start', {});
    expect(started).toMatchObject({ ok: true, value: { active: true, from: { dialogId: 'home', stepId: null } } });

    const widget = open(previewSocket(server, as.editor, { csrfToken: as.editor.csrf }));
    const seen = chat(widget);
    expect(await outcome(widget)).toBe('connected');
    await eventually('the greeting and the question', () => seen.said.length >= 2);
    expect(seen.said).toEqual(['Hi there.', 'Your email?']);
    await eventually('the panel at the question', () => panel.latest()?.position?.stepId === 'ask');

    const sending = emit<{ seq: number }>(widget, 'message', { clientId: 'c-1', text: 'ada@example.com' });
    const held = await eventually('the call held', () => panel.latest()?.held?.[0] as HeldCall | undefined);
    expect(held).toMatchObject({ kind: 'http', step: { dialogId: 'home', stepId: 'lookup' }, canSendForReal: true });
    expect(held.request).toMatchObject({ method: 'GET', url: `${upstream.url}/api/contacts?email=ada@example.com` });
    expect(held.request?.headers).toContainEqual(['authorization', 'Bearer ‹PREVIEW_CRM_TOKEN›']);
    expect(JSON.stringify(panel.latest())).not.toContain(TOKEN);
    expect(panel.latest()?.userData).toMatchObject({ email: 'ada@example.com' });

    expect(
      await emit(control, 'answer', {
        callId: held.id,
        answer: { kind: 'stub', status: 200, body: '{"name":"Stub Ada"}' },
      }),
    ).toEqual({ ok: true, value: null });
    expect(await sending).toMatchObject({ ok: true });
    await eventually('the dialog went on with the stub', () => seen.said.includes('Found Stub Ada.'));
    expect(upstream.seen).toHaveLength(0);
    expect(await emit(control, 'answer', { callId: held.id, answer: { kind: 'send' } })).toMatchObject({
      ok: false,
      error: { code: 'call_gone' },
    });

    const saved = await emit<{ name: string; tests: number }>(control, 'save_test', { name: 'finds Ada by email' });
    expect(saved).toEqual({ ok: true, value: { name: 'finds Ada by email', tests: 1 } });
  });

  it('when the author restarts from the question with chosen user data and sends the call for real, then the API is called once with the real secret and the answer shown', async () => {
    const control = open(previewSocket(server, as.editor, { control: true, csrfToken: as.editor.csrf }));
    expect(await outcome(control)).toBe('connected');
    const panel = watch(control);
    const started = await emit<PreviewState>(control, 'start', {
      dialogId: 'home',
      stepId: 'ask',
      userData: { email: 'old@example.com' },
    });
    expect(started).toMatchObject({ ok: true, value: { from: { dialogId: 'home', stepId: 'ask' } } });
    const widget = open(previewSocket(server, as.editor, { csrfToken: as.editor.csrf }));
    const seen = chat(widget);
    expect(await outcome(widget)).toBe('connected');
    await eventually('the question', () => seen.said.length >= 1);
    expect(seen.said).toEqual(['Your email?']);
    expect(panel.latest()?.userData).toMatchObject({ email: 'old@example.com' });

    void emit(widget, 'message', { clientId: 'c-1', text: 'ada@example.com' });
    const held = await eventually('the call held', () => panel.latest()?.held?.[0]);
    expect(await emit(control, 'answer', { callId: held.id, answer: { kind: 'send' } })).toEqual({
      ok: true,
      value: null,
    });
    await eventually('the real answer shown', () => seen.said.includes('Found Real Ada.'));
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]).toMatchObject({ method: 'GET', url: '/api/contacts?email=ada@example.com' });
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const activity = JSON.stringify(panel.latest()?.activity);
    expect(activity).toContain('realResponse');
    expect(activity).not.toContain(TOKEN);
  });

  it('when previews ran, then no preview user or their words appear in the transcript or user-data exports', async () => {
    const headers = { 'x-functions-key': TEST_FUNCTION_KEY };
    const transcript = await (await fetch(`${server.url}/api/management/export/transcript`, { headers })).text();
    const users = await (await fetch(`${server.url}/api/management/export/userData`, { headers })).text();
    for (const text of [transcript, users]) {
      expect(text).not.toContain('preview-');
      expect(text).not.toContain('ada@example.com');
      expect(text).not.toContain('Stub Ada');
    }
  });

  it("when a saved preview test fails on a new version, then the publish plan shows chatbot test's diff and the publish is refused; the version it was made on passes", async () => {
    const draft = (await as.editor.get('/studio/api/draft')).body as {
      baseVersionId: string;
      definition: ReturnType<typeof definition>;
    };
    const same = await as.editor.post('/studio/api/publish/plan', { versionId: draft.baseVersionId });
    expect(same.body.tests).toEqual([{ name: 'finds Ada by email', passed: true, report: '  ✓ finds Ada by email\n' }]);

    const changed = structuredClone(draft.definition);
    changed.dialogs[0]!.steps[3] = { id: 'found', type: 'message', text: 'Welcome back, {{contact.body.name}}.' };
    const saved = await as.editor.post('/studio/api/versions', {
      baseVersionId: draft.baseVersionId,
      definition: changed,
      message: 'friendlier',
    });
    expect(saved.status).toBe(201);
    const versionId = saved.body.version.id as string;
    const plan = await as.editor.post('/studio/api/publish/plan', { versionId });
    expect(plan.status).toBe(200);
    const [outcome] = plan.body.tests as { name: string; passed: boolean; report: string }[];
    expect(outcome).toMatchObject({ name: 'finds Ada by email', passed: false });
    expect(outcome!.report).toContain('✗ finds Ada by email');
    expect(outcome!.report).toContain('- "Found Stub Ada."');
    expect(outcome!.report).toContain('+ "Welcome back, Stub Ada."');

    const refused = await as.editor.post('/studio/api/publish', { versionId, moves: [] });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'tests_failed',
      details: { tests: [{ name: 'finds Ada by email', passed: false }] },
    });
    expect((await as.editor.get('/studio/api/versions')).body.publishedId).not.toBe(versionId);
  });
});
