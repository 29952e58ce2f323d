import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  TEST_FUNCTION_KEY,
  type TestServer,
} from '../../test/start-test-server.ts';

const sessionOf = (client: ReturnType<typeof connectClient>) =>
  new Promise<Session>((resolve) => client.once('session', resolve));

describe.each(storeLegs())('web chat with deferStart on $name', ({ skip, env }) => {
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

  it('when a new visitor only views the page, then a session is issued but no user, transcript or export row is stored', async () => {
    const client = connectClient(server.url, { deferStart: true, user: { email: 'viewer@example.com' } });
    const session = await sessionOf(client);
    expect(session.userId).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing to wait for: the absence holds however long the server takes.
    await sleep(300);
    expect(client.items).toStrictEqual([]);
    expect(await server.store.getUser(session.userId)).toBeNull();
    expect(await server.store.readTranscript(session.userId, 0, 10)).toStrictEqual([]);
    const exported = await (
      await fetch(`${server.url}/api/management/export/userData`, { headers: { 'x-functions-key': TEST_FUNCTION_KEY } })
    ).text();
    expect(exported).not.toContain(session.userId);
    client.disconnect();
  });

  it('when the visitor opens the chat, then the user is stored with the page data and the greeting arrives', async () => {
    const client = connectClient(server.url, { deferStart: true, user: { email: 'opener@example.com' } });
    const session = await sessionOf(client);
    expect(await client.emitWithAck('open', {})).toStrictEqual({ ok: true, value: null });
    await eventually('the greeting', () => botTexts(client.items).includes("What's your name?"));
    expect((await server.store.getUser(session.userId))?.userData).toMatchObject({ email: 'opener@example.com' });
    client.disconnect();

    // Back later, known now: replayed and not greeted again, with or without opening.
    const again = connectClient(server.url, {
      deferStart: true,
      userId: session.userId,
      token: session.token,
      lastSeq: 0,
    });
    await sessionOf(again);
    await eventually('the replay', () => again.items.length === 2);
    expect(again.items.map((item) => item.seq)).toStrictEqual([1, 2]);
    again.disconnect();
  });

  it('when the visitor writes without opening first, then the greeting runs and the message is answered, in that order', async () => {
    const client = connectClient(server.url, { deferStart: true });
    const session = await sessionOf(client);
    expect(await client.emitWithAck('message', { clientId: 'first', text: 'Ada' })).toStrictEqual({
      ok: true,
      value: { seq: 3, duplicate: false },
    });
    await eventually('the answer', () => botTexts(client.items).includes('Nice to meet you, Ada!'));
    expect((await server.store.readTranscript(session.userId, 0, 10)).map((entry) => entry.from)).toStrictEqual([
      'bot',
      'bot',
      'user',
      'bot',
    ]);
    client.disconnect();
  });

  it('when open carries anything, then it is refused as invalid, though the visitor, having acted, is stored like for any event', async () => {
    const client = connectClient(server.url, { deferStart: true });
    const session = await sessionOf(client);
    const answer = await client.emitWithAck('open', { surprise: 1 } as never);
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    client.disconnect();
    expect(await server.store.getUser(session.userId)).not.toBeNull();
  });
});
