import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProtocolError } from '../../../shared/protocol.ts';
import {
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../test/start-test-server.ts';
import { SocketTransport } from '../../../widget/transport/socket-transport.ts';
import type { ConnectFailure } from '../../../widget/transport/transport.ts';
import { SessionTokens } from './session-tokens.ts';
import { answersName, sessionOf, type ChatClient } from './test/demo-conversation.ts';

const SECRET = 'current-session-secret-0123456789abcdef';
const PREVIOUS = 'previous-session-secret-0123456789abcdef';
const DAY = 86_400_000;

/** Tokens as a server with this secret would have issued them at `at`, for `ttlMs`. */
const tokensOf = (secret: string, at = Date.now(), ttlMs = 30 * DAY) =>
  new SessionTokens({ secret, ttlMs, now: () => at });

/** The token format from before tokens carried an expiry. */
const legacyToken = (secret: string, userId: string) =>
  createHmac('sha256', secret).update(`webchat-session:${userId}`).digest('base64url');

/** The handshake's refusal, or 'connected' when the server let the client in. */
function refusalOf(client: ChatClient): Promise<ProtocolError | 'connected'> {
  return new Promise((resolve) => {
    client.once('connect', () => {
      resolve('connected');
      client.disconnect();
    });
    client.once('connect_error', (error: Error & { data?: ProtocolError }) =>
      resolve(error.data ?? { code: 'internal', message: error.message }),
    );
  });
}

/** When a token stops being accepted, read from the token the server issued. */
const expiryOf = (token: string) => Number(token.split('.')[1]) * 1000;

/** A visitor who was greeted, asked for a name, and left; returns who they were. */
async function visitorWhoLeft(url: string): Promise<string> {
  const client = connectClient(url);
  const { userId } = await sessionOf(client);
  await eventually('the greeting', () => client.items.length >= 2);
  client.disconnect();
  return userId;
}

describe.each(storeLegs())('web chat session tokens on $name', ({ skip, env }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip)
      server = await startTestServer({
        ...env(),
        SESSION_SECRET: SECRET,
        SESSION_SECRET_PREVIOUS: PREVIOUS,
        SESSION_TTL: '30d',
      });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });

  it('when a widget connects with a token close to its expiry, then the session event brings a fresh token for the full lifetime and the conversation resumes', async () => {
    const userId = await visitorWhoLeft(server.url);
    const nearlyOver = tokensOf(SECRET, Date.now() - 30 * DAY + 60_000).sign(userId);

    const client = connectClient(server.url, { userId, token: nearlyOver, lastSeq: 0 });
    const session = await sessionOf(client);

    expect(session.userId).toBe(userId);
    expect(expiryOf(session.token)).toBeGreaterThan(Date.now() + 29 * DAY);
    expect(tokensOf(SECRET).check(userId, session.token)).toEqual({ status: 'valid', legacy: false });
    await eventually('the replay', () => client.items.length >= 2);
    await answersName(client, 'Ada');
    client.disconnect();
  });

  it('when a widget presents an expired token, then the handshake is refused as session_expired', async () => {
    const userId = await visitorWhoLeft(server.url);
    const expired = tokensOf(SECRET, Date.now() - 31 * DAY).sign(userId);

    const client = connectClient(server.url, { userId, token: expired });

    expect(await refusalOf(client)).toEqual({ code: 'session_expired', message: expect.stringMatching(/expired/) });
    expect(client.connected).toBe(false);
    expect(server.logText()).not.toContain(expired);
  });

  it("when the widget's own transport presents an expired token, then it reports session_expired as a refusal it will not retry", async () => {
    const userId = await visitorWhoLeft(server.url);
    const expired = tokensOf(SECRET, Date.now() - 31 * DAY).sign(userId);
    const transport = new SocketTransport(server.url);

    const reported = await new Promise<[ConnectFailure, boolean]>((resolve) => {
      transport.on('connect_error', (failure, willRetry) => resolve([failure, willRetry]));
      transport.connect(() => ({ userId, token: expired }));
    });
    transport.disconnect();

    expect(reported).toEqual([{ code: 'session_expired', message: expect.stringMatching(/expired/) }, false]);
  });

  it('when the secret was rotated, then a token signed with SESSION_SECRET_PREVIOUS still resumes until it expires and is replaced by one under the new secret', async () => {
    const userId = await visitorWhoLeft(server.url);
    const client = connectClient(server.url, { userId, token: tokensOf(PREVIOUS).sign(userId), lastSeq: 0 });
    const session = await sessionOf(client);

    expect(session.userId).toBe(userId);
    expect(tokensOf(SECRET).check(userId, session.token).status).toBe('valid');
    expect(tokensOf(PREVIOUS).check(userId, session.token).status).toBe('invalid');
    await eventually('the replay', () => client.items.length >= 2);
    client.disconnect();

    const expired = connectClient(server.url, {
      userId,
      token: tokensOf(PREVIOUS, Date.now() - 31 * DAY).sign(userId),
    });
    expect(await refusalOf(expired)).toMatchObject({ code: 'session_expired' });
  });

  it('when a token is altered or signed with another secret, then the handshake is refused as unauthorized', async () => {
    const userId = await visitorWhoLeft(server.url);
    const other = await visitorWhoLeft(server.url);
    const genuine = tokensOf(SECRET).sign(userId);
    const [version, expires, mac] = genuine.split('.');
    const forged = [
      `${version}.${Number(expires) + 365 * 86_400}.${mac}`, // a longer life
      tokensOf('some-other-secret-0123456789abcdef').sign(userId),
      `${version}.${expires}.${mac?.startsWith('A') ? 'B' : 'A'}${mac?.slice(1)}`, // one character of the signature changed
      'v3.1.x',
    ];

    for (const token of forged) {
      expect(await refusalOf(connectClient(server.url, { userId, token }))).toMatchObject({ code: 'unauthorized' });
    }
    // Someone else's genuine token does not open this user's conversation.
    expect(await refusalOf(connectClient(server.url, { userId: other, token: genuine }))).toMatchObject({
      code: 'unauthorized',
    });
  });

  it('when a widget presents a token from before tokens expired, then it resumes under the current secret and gets a token with an expiry; under the previous secret, then it is refused as session_expired', async () => {
    const userId = await visitorWhoLeft(server.url);
    const client = connectClient(server.url, { userId, token: legacyToken(SECRET, userId), lastSeq: 0 });
    const session = await sessionOf(client);

    expect(session.userId).toBe(userId);
    expect(tokensOf(SECRET).check(userId, session.token)).toEqual({ status: 'valid', legacy: false });
    await eventually('the replay', () => client.items.length >= 2);
    client.disconnect();

    const retired = connectClient(server.url, { userId, token: legacyToken(PREVIOUS, userId) });
    expect(await refusalOf(retired)).toMatchObject({ code: 'session_expired' });
  });
});
