import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../test/start-test-server.ts';

function sessionOf(client: ReturnType<typeof connectClient>): Promise<Session> {
  return new Promise((resolve) => client.once('session', resolve));
}

describe.each(storeLegs())('web chat channel on $name', ({ skip, env }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(env());
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });

  it('when a new widget connects and the user answers, then the greeting runs, the turn is stored and the reply arrives', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    expect(session.userId).toMatch(/^[0-9a-f-]{36}$/);
    // The widget's header names the bot as its definition does (settings.name; the demo bot has no avatar).
    expect(session.bot).toEqual({ name: 'Demo bot' });
    await eventually('the greeting', () => botTexts(client.items).includes("What's your name?"));
    expect(botTexts(client.items)).toEqual(["Hi! I'm the demo bot.", "What's your name?"]);

    const ack = await client.emitWithAck('message', { clientId: 'c-1', text: 'Ada' });
    expect(ack).toEqual({ ok: true, value: { seq: 3, duplicate: false } });
    await eventually('the reply', () => botTexts(client.items).includes('Nice to meet you, Ada!'));
    expect(client.items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);

    const user = await server.store.getUser(session.userId);
    expect(user?.userData).toMatchObject({ name: 'Ada' });
    expect(user?.lastMessageAt).toEqual(expect.any(Number));
    client.disconnect();
  });

  it('when the same clientId is sent twice, then it is stored once and answered once', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    await eventually('the prompt', () => client.items.length >= 2);
    const first = await client.emitWithAck('message', { clientId: 'same', text: 'Grace' });
    const second = await client.emitWithAck('message', { clientId: 'same', text: 'Grace' });
    expect(first).toEqual({ ok: true, value: { seq: 3, duplicate: false } });
    expect(second).toEqual({ ok: true, value: { seq: 3, duplicate: true } });
    const transcript = await server.store.readTranscript(session.userId, 0, 100);
    expect(transcript.map((e) => e.from)).toEqual(['bot', 'bot', 'user', 'bot']);
    client.disconnect();
  });

  it('when a widget reconnects with its token and last seq, then it gets only what it missed, as the same user', async () => {
    const first = connectClient(server.url, { user: { email: 'ada@example.com' } });
    const session = await sessionOf(first);
    await eventually('the prompt', () => first.items.length >= 2);
    first.disconnect();

    const again = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq: 1 });
    const resumed = await sessionOf(again);
    expect(resumed.userId).toBe(session.userId);
    await eventually('the replay', () => again.items.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(again.items.map((i) => i.seq)).toEqual([2]);
    again.disconnect();
  });

  it('when a user id comes with a wrong token, then the connection is refused', async () => {
    const session = await sessionOf(connectClient(server.url));
    const intruder = connectClient(server.url, { userId: session.userId, token: 'forged' });
    const error = await new Promise<Error & { data?: unknown }>((resolve) => intruder.once('connect_error', resolve));
    expect(error.data).toEqual({ code: 'unauthorized', message: expect.stringMatching(/not valid/) });
  });

  it('when a payload breaks the protocol, then an error event with a code comes back and the connection stays up', async () => {
    const client = connectClient(server.url);
    await sessionOf(client);
    const errors: unknown[] = [];
    client.on('protocol_error', (e) => errors.push(e));
    const bad = await client.emitWithAck('message', { clientId: 42 } as never);
    expect(bad).toEqual({ ok: false, error: { code: 'invalid_payload', message: expect.any(String) } });
    const long = await client.emitWithAck('message', { clientId: 'x', text: 'a'.repeat(4097) });
    expect(long).toMatchObject({ ok: false, error: { code: 'text_too_long' } });
    expect(errors).toHaveLength(2);
    expect(client.connected).toBe(true);
    const fine = await client.emitWithAck('message', { clientId: 'y', text: 'Linus' });
    expect(fine).toMatchObject({ ok: true });
    client.disconnect();
  });

  it('when the page passes init data, then declared fields land in the user data before the first dialog', async () => {
    const client = connectClient(server.url, {
      user: { email: 'ada@example.com', page: '/pricing', authToken: 'secret-token' },
    });
    const session = await sessionOf(client);
    await eventually('the greeting', () => client.items.length >= 2);
    const user = await server.store.getUser(session.userId);
    expect(user?.userData).toEqual({ email: 'ada@example.com', page: '/pricing' });
    expect(server.logText()).not.toContain('secret-token');
    client.disconnect();
  });

  it('when widgets connect and disconnect, then each writes one log line', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    client.disconnect();
    await eventually('the disconnect line', () =>
      server.logs.some((l) => l.event === 'socket_disconnect' && l.userId === session.userId),
    );
    expect(server.logs.filter((l) => l.event === 'socket_connect' && l.userId === session.userId)).toHaveLength(1);
  });

  it('when the page saves user data, then declared fields go to the user data and the rest to variables', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    const ack = await client.emitWithAck('set_user_data', { fields: { email: 'grace@example.com', plan: 'pro' } });
    expect(ack).toEqual({ ok: true, value: null });
    const user = await server.store.getUser(session.userId);
    expect(user?.userData).toMatchObject({ email: 'grace@example.com' });
    expect(user?.userData).not.toHaveProperty('plan');
    expect(user?.variables).toMatchObject({ plan: 'pro' });
    client.disconnect();
  });

  it('when the page starts a dialog, then it runs; when the dialog is unknown, then a coded error comes back', async () => {
    const client = connectClient(server.url);
    await sessionOf(client);
    await eventually('the greeting', () => client.items.length >= 2);
    const ok = await client.emitWithAck('start_dialog', { dialogId: 'greeting', data: { from: 'banner' } });
    expect(ok).toEqual({ ok: true, value: null });
    await eventually(
      'the greeting again',
      () => botTexts(client.items).filter((t) => t === "What's your name?").length === 2,
    );
    const unknown = await client.emitWithAck('start_dialog', { dialogId: 'nope' });
    expect(unknown).toEqual({
      ok: false,
      error: { code: 'unknown_dialog', message: 'There is no dialog "nope" in this bot.' },
    });
    client.disconnect();
  });

  it('when the user presses a postback button, then it is stored with its label and answered', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    await eventually('the prompt', () => client.items.length >= 2);
    const ack = await client.emitWithAck('press', {
      clientId: 'p-1',
      label: 'Call me Ada',
      action: { kind: 'postback', payload: 'Ada' },
    });
    expect(ack).toMatchObject({ ok: true, value: { duplicate: false } });
    await eventually('the reply', () => botTexts(client.items).includes('Nice to meet you, Ada!'));
    const stored = await server.store.readTranscript(session.userId, 0, 10);
    expect(stored[2]?.message).toEqual({ type: 'postback', label: 'Call me Ada', payload: 'Ada' });
    client.disconnect();
  });
});
