import { describe, expect, it } from 'vitest';
import { incomingMessage, statusUpdates } from '../test/vendors/whatsapp/whatsapp-webhooks.ts';
import { parseWhatsAppWebhook } from './whatsapp-inbound.ts';

const number = { wabaId: '419561257915477', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const ada = { waId: '16505551234', name: 'Ada Lovelace' };

describe('reading a WhatsApp Cloud API webhook', () => {
  it("when a user writes a text, then it becomes one message under Meta's id, with the number and profile name as user data", () => {
    const payload = incomingMessage(number, ada, { type: 'text', text: { body: 'Hello' } }, { id: 'wamid.one' });
    expect(parseWhatsAppWebhook(payload, number.phoneNumberId)).toEqual({
      messages: [
        {
          eventId: 'wamid.one',
          address: '16505551234',
          input: { kind: 'text', text: 'Hello' },
          userData: { phoneNumber: '+16505551234', whatsappName: 'Ada Lovelace' },
        },
      ],
      statuses: [],
      ignored: 0,
    });
  });

  it('when a user taps a reply button or a list row, then the choice id comes back as a choice', () => {
    const button = incomingMessage(number, ada, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: '7.1', title: 'Pro' } },
    });
    const row = incomingMessage(number, ada, {
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: '7.5', title: 'Sixth' } },
    });
    expect(parseWhatsAppWebhook(button, number.phoneNumberId).messages[0]?.input).toEqual({
      kind: 'choice',
      choiceId: '7.1',
    });
    expect(parseWhatsAppWebhook(row, number.phoneNumberId).messages[0]?.input).toEqual({
      kind: 'choice',
      choiceId: '7.5',
    });
  });

  it('when a photo comes with a caption, then the caption is the message; without one, nothing is answered', () => {
    const captioned = incomingMessage(number, ada, {
      type: 'image',
      image: { id: 'media-1', mime_type: 'image/jpeg', sha256: 'x', caption: 'My receipt' },
    });
    const bare = incomingMessage(number, ada, {
      type: 'image',
      image: { id: 'media-2', mime_type: 'image/jpeg', sha256: 'x' },
    });
    expect(parseWhatsAppWebhook(captioned, number.phoneNumberId).messages[0]?.input).toEqual({
      kind: 'text',
      text: 'My receipt',
    });
    expect(parseWhatsAppWebhook(bare, number.phoneNumberId)).toMatchObject({ messages: [], ignored: 1 });
  });

  it('when the webhook is for another business number of the same app, then nothing of it is taken', () => {
    const other = incomingMessage({ ...number, phoneNumberId: '999' }, ada, { type: 'text', text: { body: 'Hello' } });
    expect(parseWhatsAppWebhook(other, number.phoneNumberId)).toMatchObject({ messages: [], ignored: 1 });
  });

  it('when statuses arrive, then each is read with its Meta error code, and none needs a turn', () => {
    const payload = statusUpdates(number, [
      { id: 'wamid.out1', recipient_id: ada.waId, status: 'delivered', timestamp: '1750000000' },
      {
        id: 'wamid.out2',
        recipient_id: ada.waId,
        status: 'failed',
        timestamp: '1750000001',
        errors: [
          {
            code: 131047,
            title: 'Re-engagement message',
            message: 'Re-engagement message',
            error_data: { details: 'More than 24 hours have passed.' },
          },
        ],
      },
    ]);
    expect(parseWhatsAppWebhook(payload, number.phoneNumberId)).toEqual({
      messages: [],
      statuses: [
        { messageId: 'wamid.out1', status: 'delivered', recipient: ada.waId },
        {
          messageId: 'wamid.out2',
          status: 'failed',
          recipient: ada.waId,
          errorCode: 131047,
          errorTitle: 'More than 24 hours have passed.',
        },
      ],
      ignored: 0,
    });
  });

  it('when the body is not a WhatsApp business webhook at all, then nothing is taken and nothing throws', () => {
    for (const body of [
      null,
      'text',
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account', entry: [{ changes: [{ value: { metadata: 'x' } }] }] },
    ]) {
      expect(parseWhatsAppWebhook(body, number.phoneNumberId).messages).toEqual([]);
    }
  });
});
