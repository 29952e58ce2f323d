import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../ports/http-error.ts';
import { renderMessage } from '../../connector/ladder.ts';
import { SendFailure } from '../../connector/connector.ts';
import { messengerApi } from '../messenger-api.ts';
import { MESSENGER_CAPABILITIES, MESSENGER_WINDOW_MS, messengerConnector } from '../messenger-connector.ts';
import type { MessengerBotTag } from '../../../settings/messenger-tags.ts';
import { startMessengerStandIn, type MessengerFailure, type MessengerStandIn } from './messenger-stand-in.ts';

const pageAccessToken = 'EAAmessenger-window-page-token-0123456789';
const now = Date.parse('2026-12-01T12:00:00Z');
const psid = '24680135792468013';

describe("Messenger's 24-hour window and Meta's refusals", () => {
  let standIn: MessengerStandIn;
  let lastMessageAt: number | null = now;
  beforeAll(async () => {
    standIn = await startMessengerStandIn({ pageAccessToken });
  });
  afterAll(async () => {
    await standIn?.close();
  });
  const connector = (messageTag?: MessengerBotTag) =>
    messengerConnector({
      send: messengerApi({ pageAccessToken, apiUrl: standIn.graphUrl, apiVersion: 'v23.0' }),
      lastMessageAt: async () => lastMessageAt,
      pageAccessToken,
      appSecret: 'unused-app-secret-0123456789',
      verifyToken: 'unused-verify-token-0123456789',
      ...(messageTag ? { messageTag } : {}),
      now: () => now,
    });
  const refusal = (run: () => void): unknown => {
    try {
      run();
    } catch (error) {
      return error;
    }
    return undefined;
  };
  const part = renderMessage({ type: 'text', text: 'Your order has shipped.' }, MESSENGER_CAPABILITIES, 1).parts[0]!;

  it('when a trigger is for a person outside the window and no tag is set, then 409 with the time of their last message', () => {
    const last = now - MESSENGER_WINDOW_MS;
    const error = refusal(() =>
      connector().admitTrigger!({ lastMessageAt: last, variables: {}, userData: {} }, 'reminder', now),
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 409,
      code: 'messenger_window_closed',
      details: { channel: 'messenger', lastMessageAt: new Date(last).toISOString() },
    });
    expect((error as Error).message).toMatch(/within 24 hours.*MESSENGER_MESSAGE_TAG.*"reminder" was not started/);
    expect(
      refusal(() =>
        connector().admitTrigger!({ lastMessageAt: now - 1000, variables: {}, userData: {} }, 'reminder', now),
      ),
    ).toBeUndefined();
  });

  it('when a tag allowed for a bot is set, then a trigger outside the window is admitted and sent with it; a person who never wrote is still refused', async () => {
    const tagged = connector('POST_PURCHASE_UPDATE');
    lastMessageAt = now - 3 * MESSENGER_WINDOW_MS;
    expect(
      refusal(() => tagged.admitTrigger!({ lastMessageAt, variables: {}, userData: {} }, 'reminder', now)),
    ).toBeUndefined();
    expect(tagged.refuseSend!({ lastMessageAt, variables: {} }, now)).toBeUndefined();
    await tagged.send(psid, part);
    expect(standIn.accepted().at(-1)).toMatchObject({ messagingType: 'MESSAGE_TAG', tag: 'POST_PURCHASE_UPDATE' });
    expect(
      refusal(() => tagged.admitTrigger!({ lastMessageAt: null, variables: {}, userData: {} }, 'reminder', now)),
    ).toMatchObject({
      status: 409,
      message: expect.stringContaining('never written'),
    });
    lastMessageAt = now - 1000;
    await tagged.send(psid, part);
    expect(standIn.accepted().at(-1)).toMatchObject({ messagingType: 'RESPONSE' });
  });

  it('when a message is due outside the window without a tag, then it is refused before calling Meta, as code 10', () => {
    expect(connector().refuseSend!({ lastMessageAt: now - MESSENGER_WINDOW_MS, variables: {} }, now)).toMatchObject({
      kind: 'permanent',
      vendorCode: '10',
      message: expect.stringContaining("outside Messenger's 24-hour window"),
    });
    expect(connector().refuseSend!({ lastMessageAt: null, variables: {} }, now)).toBeUndefined();
  });

  it.each([
    ['unavailable', 'permanent', '551'],
    ['outside-window', 'permanent', '10'],
    ['no-permission', 'permanent', '200'],
    ['rate-limit', 'rate_limited', '613'],
    ['server-error', 'transient', '2'],
  ] as [MessengerFailure, string, string][])(
    'when Meta answers %s, then the send fails as %s with code %s and no token in its message',
    async (failure, kind, code) => {
      lastMessageAt = now;
      standIn.failNext(failure);
      const error = await connector()
        .send(psid, part)
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(SendFailure);
      expect(error).toMatchObject({ kind, vendorCode: code, endpoint: 'me/messages' });
      expect((error as Error).message).not.toContain(pageAccessToken);
    },
  );
});
