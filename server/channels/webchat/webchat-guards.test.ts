import { io as connect } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolError, Session } from '../../../shared/protocol.ts';
import { connectClient, eventually, startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { userHashFor } from './identity.ts';

const IDENTITY_SECRET = 'identity-secret-0123456789';

function sessionOf(client: ReturnType<typeof connectClient>): Promise<Session> {
  return new Promise((resolve) => client.once('session', resolve));
}

function refusalOf(client: ReturnType<typeof connectClient>): Promise<unknown> {
  return new Promise((resolve) =>
    client.once('connect_error', (error: Error & { data?: unknown }) => resolve(error.data ?? error.message)),
  );
}

/** A socket as a browser page on `origin` opens it (browsers send the Origin header; Node's client does not on its own). */
function openFrom(url: string, origin: string) {
  return connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { origin } });
}

/** 'connected', or the refusal's data. */
function outcome(socket: ReturnType<typeof openFrom>): Promise<unknown> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error: Error & { data?: unknown }) => resolve(error.data ?? error.message));
  });
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('web chat guards', () => {
  it('when a connection sends faster than its rate limit, then the excess is refused as rate_limited and the connection stays up', async () => {
    server = await startTestServer({ WEBCHAT_RATE_LIMIT: '5' });
    const client = connectClient(server.url);
    await sessionOf(client);
    const errors: ProtocolError[] = [];
    client.on('protocol_error', (e) => errors.push(e));

    const acks = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.emitWithAck('message', { clientId: `c${i}`, text: `hi ${i}` })),
    );

    expect(acks.filter((a) => a.ok)).toHaveLength(5);
    expect(acks.filter((a) => !a.ok).map((a) => (a.ok ? null : a.error.code))).toEqual([
      'rate_limited',
      'rate_limited',
      'rate_limited',
    ]);
    expect(errors.every((e) => e.code === 'rate_limited')).toBe(true);
    expect(client.connected).toBe(true);
    expect(server.logs.filter((l) => l.event === 'socket_rate_limited')).toHaveLength(1);
    client.disconnect();
  });

  it('when a use case fails, then the event is answered as internal, the operator log has it at error, and the connection carries on', async () => {
    server = await startTestServer();
    const client = connectClient(server.url);
    await sessionOf(client);
    await eventually('the greeting', () => client.items.length >= 2);
    const { store } = server;
    const updateUser = store.updateUser.bind(store);
    store.updateUser = () => Promise.reject(new Error('the disk is full'));
    const errors: ProtocolError[] = [];
    client.on('protocol_error', (e) => errors.push(e));

    const failed = await client.emitWithAck('set_user_data', { fields: { plan: 'pro' } });
    store.updateUser = updateUser;

    expect(failed).toEqual({ ok: false, error: { code: 'internal', message: expect.any(String) } });
    expect(errors.map((e) => e.code)).toEqual(['internal']);
    expect(failed.ok ? '' : failed.error.message).not.toContain('disk');
    expect(server.logs.filter((l) => l.event === 'socket_event_failed')).toEqual([
      expect.objectContaining({ level: 50, err: expect.objectContaining({ message: 'the disk is full' }) }),
    ]);
    expect(await client.emitWithAck('set_user_data', { fields: { plan: 'pro' } })).toEqual({ ok: true, value: null });
    client.disconnect();
  });

  it('when the page passes a verified identity, then that user id is used and another device resumes the same conversation', async () => {
    server = await startTestServer({ BOT_IDENTITY_SECRET: IDENTITY_SECRET });
    const identity = { userId: 'shop-user-42', userHash: userHashFor(IDENTITY_SECRET, 'shop-user-42') };
    const laptop = connectClient(server.url, { identity });
    const first = await sessionOf(laptop);
    expect(first.userId).toBe('shop-user-42');
    await eventually('the greeting', () => laptop.items.length >= 2);
    laptop.disconnect();

    const phone = connectClient(server.url, { identity });
    expect((await sessionOf(phone)).userId).toBe(first.userId);
    await eventually('the history on the second device', () => phone.items.length >= 2);
    expect(phone.items.map((i) => i.seq)).toEqual([1, 2]);
    phone.disconnect();
  });

  it('when the userHash does not match, then the connection is refused as unauthorized', async () => {
    server = await startTestServer({ BOT_IDENTITY_SECRET: IDENTITY_SECRET });
    const client = connectClient(server.url, {
      identity: { userId: 'shop-user-42', userHash: userHashFor('another-secret-0123456', 'shop-user-42') },
    });
    expect(await refusalOf(client)).toEqual({ code: 'unauthorized', message: expect.stringMatching(/userHash/) });
  });

  it('when linking by phone is not enabled, then an identity with a phone number is refused, not linked or ignored', async () => {
    server = await startTestServer({ BOT_IDENTITY_SECRET: IDENTITY_SECRET });
    const phone = '+4915112345678';
    const client = connectClient(server.url, {
      identity: { userId: 'shop-user-42', phone, userHash: userHashFor(IDENTITY_SECRET, 'shop-user-42', phone) },
    });
    expect(await refusalOf(client)).toEqual({
      code: 'not_allowed',
      message: expect.stringMatching(/BOT_IDENTITY_LINK_PHONE/),
    });
  });

  it('when identity verification is not configured, then an identity in the handshake is refused, not ignored', async () => {
    server = await startTestServer();
    const client = connectClient(server.url, { identity: { userId: 'shop-user-42', userHash: 'ab' } });
    expect(await refusalOf(client)).toEqual({
      code: 'not_allowed',
      message: expect.stringMatching(/BOT_IDENTITY_SECRET/),
    });
  });

  it('when ALLOWED_ORIGINS is unset, then a page on any origin opens the chat', async () => {
    server = await startTestServer();
    const page = openFrom(server.url, 'https://shop.example.com');
    expect(await outcome(page)).toBe('connected');
    page.disconnect();
    expect(server.logs.filter((l) => l.event === 'origin_refused')).toEqual([]);
  });

  it("when ALLOWED_ORIGINS is set, then its origins, the server's own and PUBLIC_URL's connect, and another is refused with origin_not_allowed, logged once naming the origin and the setting", async () => {
    server = await startTestServer({
      ALLOWED_ORIGINS: 'https://shop.example.com, https://other.example.com:8443/',
      PUBLIC_URL: 'https://bot.example.com/chat',
    });
    for (const origin of [
      'https://shop.example.com',
      'https://other.example.com:8443',
      server.url,
      'https://bot.example.com',
    ]) {
      const page = openFrom(server.url, origin);
      expect([origin, await outcome(page)]).toEqual([origin, 'connected']);
      page.disconnect();
    }

    const refusals = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const page = openFrom(server.url, 'https://evil.example.net');
      refusals.push(await outcome(page));
      expect(page.connected).toBe(false);
      page.disconnect();
    }

    expect(refusals).toEqual(
      refusals.map(() => ({
        code: 'origin_not_allowed',
        origin: 'https://evil.example.net',
        setting: 'ALLOWED_ORIGINS',
        message: expect.stringContaining('ALLOWED_ORIGINS'),
      })),
    );
    expect(server.logs.filter((l) => l.event === 'origin_refused')).toEqual([
      expect.objectContaining({ level: 40, origin: 'https://evil.example.net', setting: 'ALLOWED_ORIGINS' }),
    ]);
  });
});
