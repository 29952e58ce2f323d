import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PreviewState } from '../../../shared/preview-protocol.ts';
import type { Session } from '../../../shared/protocol.ts';
import { PREVIEW_SWEEP_JOB } from '../../jobs/handlers/preview-sweep.ts';
import { startServerChild, type ServerChild } from '../../test/server-child.ts';
import {
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  TEST_FUNCTION_KEY,
  type TestServer,
} from '../../test/start-test-server.ts';
import { chat, emit, outcome, previewSocket } from './preview-client.ts';
import { invite, setUpOwner } from './studio-client.ts';

const HOUR = 3_600_000;

const BOT = {
  settings: { id: 'sweep-bot', name: 'Sweep bot', startDialog: 'home' },
  userDataFields: ['email'],
  dialogs: [
    {
      id: 'home',
      steps: [
        { id: 'ask', type: 'input', prompt: 'Your email?', saveTo: { userData: 'email' } },
        { id: 'thanks', type: 'message', text: 'Thanks, {{email}}.' },
        { id: 'end', type: 'end' },
      ],
    },
  ],
};

async function botFile(dir: string): Promise<string> {
  const file = path.join(dir, 'bot.json');
  await writeFile(file, JSON.stringify(BOT));
  return file;
}

describe('preview users left behind by a crash', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  it('when the server is killed during a preview and started again, then the preview user and its words are gone and a visitor who chatted is untouched', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'preview-sweep-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = await botFile(dir);
    const env = { DATA_DIR: dir, BOT_DEFINITION: file, BOT_FUNCTION_KEY: TEST_FUNCTION_KEY };
    const child: ServerChild = await startServerChild(env);
    cleanup.push(() => child.kill());
    const setupLink = /No studio owner yet[^\n]*\n\s*(\S+)/.exec(child.output())?.[1];
    expect(setupLink).toBeDefined();
    const owner = await setUpOwner(child.url, setupLink!);
    const editor = await invite(owner, 'editor@example.com', 'editor');
    await editor.get('/studio/api/session');

    // An author's preview, mid-conversation.
    const sockets: Socket[] = [];
    cleanup.push(async () => sockets.forEach((s) => s.disconnect()));
    const control = previewSocket(child, editor, { control: true, csrfToken: editor.csrf });
    sockets.push(control);
    expect(await outcome(control)).toBe('connected');
    expect(await emit<PreviewState>(control, 'start', {})).toMatchObject({ ok: true });
    const widget = previewSocket(child, editor, { csrfToken: editor.csrf });
    sockets.push(widget);
    const previewSession = new Promise<Session>((resolve) => widget.once('session', resolve));
    const seen = chat(widget);
    expect(await outcome(widget)).toBe('connected');
    const previewUserId = (await previewSession).userId;
    await emit(widget, 'message', { clientId: 'p-1', text: 'author@example.com' });
    await eventually('the preview answered', () => seen.said.includes('Thanks, author@example.com.'));

    // A visitor of the live bot, on the same server.
    const visitor = connectClient(child.url);
    sockets.push(visitor);
    const visitorSession = await new Promise<Session>((resolve) => visitor.once('session', resolve));
    await visitor.emitWithAck('message', { clientId: 'v-1', text: 'visitor@example.com' });
    await eventually('the visitor answered', () =>
      visitor.items.some((i) => i.message.type === 'text' && i.message.text === 'Thanks, visitor@example.com.'),
    );

    // A crash: the preview is never stopped, so nothing erased its user.
    await child.kill();
    const server: TestServer = await startTestServer({ BOT_DEFINITION: file }, dir);
    cleanup.push(() => server.stop());

    expect(await server.store.getUser(previewUserId)).toBeNull();
    expect(await server.store.readTranscript(previewUserId, 0, 100)).toEqual([]);
    expect(server.logs).toContainEqual(
      expect.objectContaining({ event: 'preview_users_swept', erased: 1, atStart: true }),
    );
    const kept = await server.store.getUser(visitorSession.userId);
    expect(kept?.userData).toMatchObject({ email: 'visitor@example.com' });
    expect((await server.store.readTranscript(visitorSession.userId, 0, 100)).length).toBeGreaterThanOrEqual(3);
  }, 120_000);
});

describe.each(storeLegs())('the hourly sweep of idle preview users ($name)', ({ skip, env }) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  it('when a preview user has been idle longer than the sweep allows (left by another node), then the hourly sweep erases it, and a fresh preview user and an idle visitor stay', async () => {
    let now = Date.UTC(2026, 0, 5, 9);
    const dir = await mkdtemp(path.join(tmpdir(), 'preview-sweep-age-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const server = await startTestServer({ ...env(), BOT_DEFINITION: await botFile(dir) }, undefined, {
      clock: { now: () => now },
    });
    cleanup.push(() => server.stop());
    const left = await server.store.ensureUser({
      userId: 'preview-left',
      channelId: 'webchat',
      userData: { email: 'left@example.com' },
      now,
      preview: { accountId: 'acc-gone' },
    });
    await server.store.appendTranscript(left.userId, [
      { from: 'user', at: now, message: { type: 'text', text: 'left behind' } },
    ]);
    await server.store.ensureUser({
      userId: 'visitor-idle',
      channelId: 'webchat',
      userData: { email: 'idle@example.com' },
      now,
    });

    now += 12 * HOUR;
    await server.store.ensureUser({
      userId: 'preview-fresh',
      channelId: 'webchat',
      userData: {},
      now,
      preview: { accountId: 'acc-busy' },
    });
    now += 1 * HOUR;
    await server.jobs.schedule({
      id: PREVIEW_SWEEP_JOB,
      kind: PREVIEW_SWEEP_JOB,
      payload: {},
      runAt: now,
      maxAttempts: 5,
    });

    await eventually('the idle preview user erased', async () => (await server.store.getUser('preview-left')) === null);
    expect(await server.store.readTranscript('preview-left', 0, 100)).toEqual([]);
    expect(await server.store.getUser('preview-fresh')).not.toBeNull();
    expect((await server.store.getUser('visitor-idle'))?.userData).toEqual({ email: 'idle@example.com' });
    // Told once the whole run is over, a moment after the last erasure.
    const swept = await eventually('the sweep logged', () =>
      server.logs.find((line) => line.event === 'preview_users_swept'),
    );
    expect(swept).toMatchObject({ erased: 1 });
  });
});
