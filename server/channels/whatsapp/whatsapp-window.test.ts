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
  dialogTemplate: (dialogId) =>
    dialogId === 'shipped'
      ? { name: 'order_shipped', language: 'en_US', parameters: ['{{order}}', 'line\n\tbreaks     and  spaces'] }
      : undefined,
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

  it('when the dialog names a template, then a trigger outside the window is admitted, its first message goes as the template and the rest of its turn is covered', async () => {
    const user = { ...{ lastMessageAt: now - 2 * WHATSAPP_WINDOW_MS, variables: { order: 'A-17' }, userData: {} } };
    expect(() => connector.admitTrigger!(user, 'shipped', now)).not.toThrow();
    expect(() => connector.admitTrigger!(null, 'shipped', now)).not.toThrow();
    const sent: unknown[] = [];
    const withSend = whatsAppConnector({
      ...{ phoneNumberId: '1', accessToken: 'token', appSecret: 'secret', verifyToken: 'verify' },
      onStatus: () => undefined,
      send: (message) => (sent.push(message), Promise.resolve('wamid.x')),
      dialogTemplate: (dialogId) =>
        dialogId === 'shipped'
          ? { name: 'order_shipped', language: 'de', parameters: ['{{order}}', 'a\n b     c'] }
          : undefined,
    });
    const record = {
      userId: 'whatsapp:1',
      channelId: 'whatsapp',
      position: null,
      createdAt: 0,
      updatedAt: 0,
      version: 1,
      lastSeq: 2,
      lastTrigger: null,
      ...user,
    };
    const first = withSend.replaceSend!(record, now, { dialogId: 'shipped', opensTurn: true });
    expect(first?.kind).toBe('instead');
    if (first?.kind === 'instead') await first.send('16505550001');
    expect(sent).toEqual([
      {
        to: '16505550001',
        type: 'template',
        template: {
          name: 'order_shipped',
          language: { policy: 'deterministic', code: 'de' },
          // Meta refuses line breaks, tabs and runs of five spaces in a parameter (132018).
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'A-17' },
                { type: 'text', text: 'a b c' },
              ],
            },
          ],
        },
      },
    ]);
    expect(withSend.replaceSend!(record, now, { dialogId: 'shipped', opensTurn: false })).toMatchObject({
      kind: 'covered',
    });
    // Inside the window, and for a dialog without a template, messages go as usual.
    expect(
      withSend.replaceSend!({ ...record, lastMessageAt: now - 1000 }, now, { dialogId: 'shipped', opensTurn: true }),
    ).toBeUndefined();
    expect(withSend.replaceSend!(record, now, { dialogId: 'reminder', opensTurn: true })).toBeUndefined();
  });
});
