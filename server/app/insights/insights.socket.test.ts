import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotMessage, Session } from '../../../shared/protocol.ts';
import { dayOf } from '../../ports/insights.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  TEST_FUNCTION_KEY,
  type TestClient,
  type TestServer,
} from '../../test/start-test-server.ts';
import { writeBot } from '../test/every-step-bot.ts';

function sessionOf(client: TestClient): Promise<Session> {
  return new Promise((resolve) => client.once('session', resolve));
}
let clientIds = 0;
const send = (client: TestClient, text: string) => client.emitWithAck('message', { clientId: `i${++clientIds}`, text });

describe.each(storeLegs())('insights kept with each turn on $name', ({ skip, env }) => {
  let server: TestServer;
  let dir: string;
  const users: Record<'stopped' | 'finished' | 'misunderstood', string> = {
    stopped: '',
    finished: '',
    misunderstood: '',
  };

  beforeAll(async () => {
    if (skip) return;
    dir = await mkdtemp(path.join(tmpdir(), 'insights-'));
    server = await startTestServer({ ...env(), BOT_DEFINITION: await writeBot(dir), WEBCHAT_RATE_LIMIT: '10000' });

    // One user stops at the name prompt after clicking the docs link.
    const stopped = connectClient(server.url);
    users.stopped = (await sessionOf(stopped)).userId;
    await eventually('the first prompt', () => botTexts(stopped.items).includes('Your name?'));
    const hello = stopped.items[0]?.message as Extract<BotMessage, { type: 'text' }>;
    const docs = hello.buttons?.[0];
    expect((await fetch(docs?.kind === 'url' ? docs.url : '', { redirect: 'manual' })).status).toBe(302);
    stopped.disconnect();

    // One goes through the main dialog and the one it jumps to, to its end.
    const finished = connectClient(server.url);
    users.finished = (await sessionOf(finished)).userId;
    await eventually('the first prompt', () => botTexts(finished.items).includes('Your name?'));
    await send(finished, 'Annabel');
    await eventually('the age prompt', () => botTexts(finished.items).includes('Your age?'));
    await send(finished, '30');
    await eventually('the end', () => botTexts(finished.items).includes('All done.'));
    finished.disconnect();

    // One writes what nothing understands.
    const misunderstood = connectClient(server.url);
    users.misunderstood = (await sessionOf(misunderstood)).userId;
    await eventually('the first prompt', () => botTexts(misunderstood.items).includes('Your name?'));
    await misunderstood.emitWithAck('start_dialog', { dialogId: 'ask' });
    await eventually('the nlp prompt', () => botTexts(misunderstood.items).includes('What do you want?'));
    await send(misunderstood, 'qwxz blorp zzz');
    await eventually('the miss', () => botTexts(misunderstood.items).includes('Unsure.'));
    misunderstood.disconnect();

    await server.insights.recorder!.flush();
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });

  const today = () => ({ fromDay: dayOf(Date.now()) - 1, toDay: dayOf(Date.now()) });

  it('when three scripted conversations ran, then the counters hold exactly their conversations, users, messages, reach, stops and completions', async () => {
    const { daily, totals } = await server.insights.store.counters(today(), [
      'conversations',
      'activeUsers',
      'messagesUser',
      'stepReached',
      'stepStopped',
      'dialogCompleted',
      'unprocessed',
      'urlClicks',
    ]);
    const sum = (metric: 'conversations' | 'activeUsers' | 'messagesUser') =>
      [...daily.values()].reduce((n, day) => n + (day.get(metric) ?? 0), 0);
    expect(sum('conversations')).toBe(3);
    expect(sum('activeUsers')).toBe(2);
    expect(sum('messagesUser')).toBe(3);
    const count = (
      metric: 'stepReached' | 'stepStopped' | 'dialogCompleted' | 'unprocessed' | 'urlClicks',
      a: string,
      b = '',
    ) => totals.get(metric)?.get(a)?.get(b) ?? 0;
    expect(count('stepReached', 'main', 'hello')).toBe(3);
    expect(count('stepReached', 'main', 'name')).toBe(3);
    expect(count('stepReached', 'main', 'age')).toBe(1);
    expect(count('stepReached', 'done', 'bye')).toBe(1);
    expect(count('stepStopped', 'main', 'name')).toBe(1);
    expect(count('dialogCompleted', 'done')).toBe(1);
    expect(count('unprocessed', 'qwxz blorp zzz')).toBe(1);
    expect(count('urlClicks', 'docs.example.com')).toBe(1);
  });

  it('when conversations are searched by words, step reached or channel, then only the matching users come back', async () => {
    const range = { fromMs: Date.now() - 3_600_000, toMs: Date.now() + 1000, limit: 10 };
    const byText = await server.insights.store.searchConversations({ ...range, text: 'annabel' });
    expect(byText.items.map((c) => c.userId)).toEqual([users.finished]);
    const byStep = await server.insights.store.searchConversations({ ...range, reached: 'ask/listen' });
    expect(byStep.items.map((c) => c.userId)).toEqual([users.misunderstood]);
    const all = await server.insights.store.searchConversations({ ...range, channel: 'webchat' });
    expect(new Set(all.items.map((c) => c.userId))).toEqual(new Set(Object.values(users)));
    // The trail rides in the user's variables and is never part of the user data.
    const stored = await server.store.getUser(users.finished);
    expect(Object.keys(stored?.userData ?? {})).not.toContain('$trail');
  });

  it('when a user is erased through the management API, then their conversations are gone from insights and the counters stay', async () => {
    const before = await server.insights.store.counters(today(), ['conversations']);
    const erased = await fetch(`${server.url}/api/management/users/${encodeURIComponent(users.finished)}`, {
      method: 'DELETE',
      headers: { 'x-functions-key': TEST_FUNCTION_KEY },
    });
    expect(erased.status).toBe(200);
    expect(await server.insights.store.conversationsOf(users.finished, 10)).toEqual([]);
    const range = { fromMs: Date.now() - 3_600_000, toMs: Date.now() + 1000, limit: 10 };
    expect((await server.insights.store.searchConversations({ ...range, text: 'annabel' })).items).toEqual([]);
    await server.insights.recorder!.flush();
    expect((await server.insights.store.conversationsOf(users.finished, 10)).length).toBe(0);
    const after = await server.insights.store.counters(today(), ['conversations']);
    expect([...after.daily.values()].map((d) => d.get('conversations'))).toEqual(
      [...before.daily.values()].map((d) => d.get('conversations')),
    );
  });

  it('when a preview user has log rows, then no export lists them while a real user in the same log is listed', async () => {
    const now = Date.now();
    await server.store.ensureUser({
      userId: 'preview-user',
      channelId: 'webchat',
      now,
      preview: { accountId: 'author-1' },
    });
    await server.store.appendLog('nlpLog', {
      userId: 'preview-user',
      timestamp: now,
      data: { query: 'from the preview', processed: false },
    });
    const response = await fetch(`${server.url}/api/management/export/nlpLog?format=json`, {
      headers: { 'x-functions-key': TEST_FUNCTION_KEY },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(users.misunderstood);
    expect(text).not.toContain('preview-user');
    expect(text).not.toContain('from the preview');
    const userData = await (
      await fetch(`${server.url}/api/management/export/userData?format=json`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      })
    ).text();
    expect(userData).toContain(users.stopped);
    expect(userData).not.toContain('preview-user');
  });
});
