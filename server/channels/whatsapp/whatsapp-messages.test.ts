import { describe, expect, it } from 'vitest';
import type { BotMessage } from '../../../shared/protocol.ts';
import { choiceByAnswer, renderMessage } from '../connector/ladder.ts';
import { whatsAppMessageProblems } from '../test/vendors/whatsapp/whatsapp-cloud-stand-in.ts';
import { WHATSAPP_CAPABILITIES, messagesFor } from './whatsapp-connector.ts';

const send = (message: BotMessage) => {
  const rendered = renderMessage(message, WHATSAPP_CAPABILITIES, 7);
  return { rendered, sent: rendered.parts.flatMap((part) => messagesFor('16505551234', part)) };
};

describe('WhatsApp messages for rendered parts', () => {
  it('when a question with two choices is short, then it is one message with two reply buttons carrying the choice ids', () => {
    const { sent } = send({
      type: 'text',
      text: 'Pick a plan.',
      quickReplies: [
        { label: 'Basic', payload: 'basic' },
        { label: 'Pro', payload: 'pro' },
      ],
    });
    expect(sent).toEqual([
      {
        to: '16505551234',
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'Pick a plan.' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: '7.0', title: 'Basic' } },
              { type: 'reply', reply: { id: '7.1', title: 'Pro' } },
            ],
          },
        },
      },
    ]);
  });

  it('when a question with choices is longer than an interactive body holds, then it is one text Meta accepts, its choices numbered and answerable', () => {
    const { rendered, sent } = send({
      type: 'text',
      text: `${'Terms. '.repeat(300)}\n\nDo you agree?`,
      quickReplies: [
        { label: 'Yes', payload: 'yes' },
        { label: 'No', payload: 'no' },
      ],
    });
    expect(sent).toHaveLength(1);
    const body = (sent[0]!.text as { body: string }).body;
    expect(body).toMatch(/Do you agree\?\n\n1\. Yes\n2\. No$/);
    expect(
      whatsAppMessageProblems({ messaging_product: 'whatsapp', recipient_type: 'individual', ...sent[0]! }),
    ).toEqual([]);
    expect(choiceByAnswer('2', rendered.choices)?.label).toBe('No');
  });
});
