import { describe, expect, it } from 'vitest';
import { HttpError } from '../../ports/http-error.ts';
import { WHATSAPP_WINDOW_MS, whatsAppConnector } from './whatsapp-connector.ts';

const connector = whatsAppConnector({
  send: () => Promise.resolve('wamid.x'),
  phoneNumberId: '1',
  accessToken: 'token',
  appSecret: 'secret',
  verifyToken: 'verify',
  onStatus: () => undefined,
});
const now = Date.parse('2026-12-01T12:00:00Z');
const admit = (lastMessageAt: number | null) => () =>
  connector.admitTrigger!({ lastMessageAt, variables: {}, userData: {} }, 'reminder', now);

describe("WhatsApp's 24-hour window for triggers", () => {
  it('when the user wrote less than 24 hours ago, then a trigger is admitted', () => {
    expect(admit(now - WHATSAPP_WINDOW_MS + 1000)).not.toThrow();
  });

  it('when the user last wrote 24 hours ago or more, then the trigger is refused with 409 and the time of their last message', () => {
    for (const last of [now - WHATSAPP_WINDOW_MS, now - 3 * WHATSAPP_WINDOW_MS]) {
      let refusal: unknown;
      try {
        admit(last)();
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(HttpError);
      expect(refusal).toMatchObject({
        status: 409,
        code: 'whatsapp_window_closed',
        details: { lastMessageAt: new Date(last).toISOString() },
      });
      expect((refusal as Error).message).toContain(`last wrote at ${new Date(last).toISOString()}`);
    }
  });

  it('when a bot message is due for a user outside the window (a timer), then it is refused before calling Meta, as 131047, and inside it is sent', () => {
    expect(connector.refuseSend!({ lastMessageAt: now - 60_000, variables: {} }, now)).toBeUndefined();
    expect(connector.refuseSend!({ lastMessageAt: now - WHATSAPP_WINDOW_MS, variables: {} }, now)).toMatchObject({
      kind: 'permanent',
      vendorCode: '131047',
      message: expect.stringContaining("outside WhatsApp's 24-hour window"),
    });
    // A new user's greeting can be due before their first message's turn has stored its time.
    expect(connector.refuseSend!({ lastMessageAt: null, variables: {} }, now)).toBeUndefined();
  });
});
