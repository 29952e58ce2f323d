import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Button } from '../../../../shared/protocol.ts';
import { choiceByAnswer, renderMessage } from '../../connector/ladder.ts';
import { answerable, message } from '../../connector/test/ladder-properties.ts';
import { messengerApi } from '../messenger-api.ts';
import { MESSENGER_CAPABILITIES, messageFor, messengerConnector } from '../messenger-connector.ts';
import { startMessengerStandIn, type MessengerStandIn } from './messenger-stand-in.ts';

const pageAccessToken = 'EAAmessenger-ladder-page-token-0123456789';

describe('the rendering ladder on Messenger', () => {
  let standIn: MessengerStandIn;
  beforeAll(async () => {
    standIn = await startMessengerStandIn({ pageAccessToken });
  });
  afterAll(async () => {
    await standIn?.close();
  });

  const connector = () =>
    messengerConnector({
      send: messengerApi({ pageAccessToken, apiUrl: standIn.graphUrl, apiVersion: 'v23.0' }),
      lastMessageAt: async () => Date.now(),
      pageAccessToken,
      appSecret: 'unused-app-secret-0123456789',
      verifyToken: 'unused-verify-token-0123456789',
      now: Date.now,
    });

  it('when any message is rendered (over-long texts, many or duplicate buttons, emoji, combining marks, right to left, markup characters), then Messenger accepts every part and every choice can be answered', async () => {
    const send = connector();
    let parts = 0;
    await fc.assert(
      fc.asyncProperty(message, fc.integer({ min: 1, max: 1_000_000 }), async (said, seq) => {
        const rendered = renderMessage(said, MESSENGER_CAPABILITIES, seq);
        expect(rendered.parts.length).toBeGreaterThan(0);
        for (const part of rendered.parts) {
          await send.send('24680135792468013', part);
          parts++;
        }
        answerable(rendered, seq);
      }),
      { numRuns: 300 },
    );
    expect(standIn.log.filter((entry) => entry.status !== 200).map((entry) => entry.problems)).toEqual([]);
    expect(standIn.accepted()).toHaveLength(parts);
  });

  it('when a message has three, thirteen or fourteen choices, then a button template, quick replies carrying the choice, or numbered text', () => {
    const buttons = (count: number): Button[] =>
      Array.from({ length: count }, (_, i) => ({ kind: 'postback', label: `Option ${i + 1}`, payload: `p${i + 1}` }));
    const shown = (count: number) => {
      const rendered = renderMessage(
        { type: 'text', text: 'Pick one.', buttons: buttons(count) },
        MESSENGER_CAPABILITIES,
        7,
      );
      return { rendered, sent: rendered.parts.map(messageFor) };
    };
    const three = shown(3).sent[0] as {
      attachment: { payload: { template_type: string; buttons: { payload: string }[] } };
    };
    expect(three.attachment.payload.template_type).toBe('button');
    expect(three.attachment.payload.buttons.map((b) => b.payload)).toEqual(['choice:7.0', 'choice:7.1', 'choice:7.2']);
    const thirteen = shown(13);
    expect(thirteen.rendered.degraded).toBe(true);
    const quick = (thirteen.sent[0] as { quick_replies: { title: string; payload: string }[] }).quick_replies;
    expect(quick).toHaveLength(13);
    expect(quick[12]).toEqual({ content_type: 'text', title: 'Option 13', payload: 'choice:7.12' });
    const fourteen = shown(14);
    expect(fourteen.sent[0]).toEqual({
      text: expect.stringMatching(/^Pick one\.\n\n1\. Option 1\n[\s\S]*14\. Option 14$/),
    });
    expect(choiceByAnswer('14', fourteen.rendered.choices)?.label).toBe('Option 14');
  });
});

describe("the Messenger stand-in's rules", () => {
  it('when a body breaks a rule of the Send API reference, then the stand-in names it', async () => {
    const { messengerSendProblems } = await import('./messenger-stand-in.ts');
    const reply = (title: string) => ({ content_type: 'text', title, payload: title });
    const ok = { recipient: { id: '123' }, messaging_type: 'RESPONSE', message: { text: 'Hi' } };
    expect(messengerSendProblems(ok)).toEqual([]);
    for (const broken of [
      { ...ok, messaging_type: undefined },
      { ...ok, message: { text: 'x'.repeat(2001) } },
      { ...ok, message: { text: 'Hi', quick_replies: Array.from({ length: 14 }, (_, i) => reply(`r${i}`)) } },
      { ...ok, message: { text: 'Hi', quick_replies: [reply('same'), reply('same')] } },
      { ...ok, message: { text: 'Hi', quick_replies: [reply('x'.repeat(21))] } },
      { ...ok, messaging_type: 'MESSAGE_TAG' },
      { ...ok, messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' },
      { ...ok, tag: 'ACCOUNT_UPDATE' },
      {
        ...ok,
        message: {
          attachment: {
            type: 'template',
            payload: {
              template_type: 'button',
              text: 'x'.repeat(641),
              buttons: [{ type: 'postback', title: 'a', payload: 'a' }],
            },
          },
        },
      },
      {
        ...ok,
        message: {
          attachment: {
            type: 'template',
            payload: { template_type: 'generic', elements: Array.from({ length: 11 }, () => ({ title: 't' })) },
          },
        },
      },
    ])
      expect(messengerSendProblems(broken), JSON.stringify(broken).slice(0, 120)).not.toEqual([]);
  });
});
