import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Button, Card } from '../../../../shared/protocol.ts';
import { choiceByAnswer, renderMessage } from '../../connector/ladder.ts';
import { answerable, carousel, message } from '../../connector/test/ladder-properties.ts';
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

  it('when a carousel of 1 to 15 cards with long texts is rendered, then every card that fits one goes in a generic template of at most 10, Messenger accepts every part and every choice can be answered', async () => {
    const send = connector();
    const before = standIn.accepted().length;
    let parts = 0;
    await fc.assert(
      fc.asyncProperty(carousel, fc.integer({ min: 1, max: 1_000_000 }), async (said, seq) => {
        const rendered = renderMessage(said, MESSENGER_CAPABILITIES, seq);
        for (const part of rendered.parts) {
          if (part.kind === 'cards') expect(part.cards.length).toBeLessThanOrEqual(10);
          await send.send('24680135792468013', part);
          parts++;
        }
        answerable(rendered, seq);
        const inSets = rendered.parts.flatMap((part) => (part.kind === 'cards' ? part.cards : []));
        const cards = said.type === 'carousel' ? said.cards : [];
        // Degraded exactly when a card went on its own.
        expect(rendered.degraded).toBe(inSets.length < cards.length);
      }),
      { numRuns: 150 },
    );
    expect(standIn.log.filter((entry) => entry.status !== 200).map((entry) => entry.problems)).toEqual([]);
    expect(standIn.accepted().length - before).toBe(parts);
  });

  it('when a carousel has twelve cards, then one generic template of ten and one of two, each card with its title and subtitle cut to 80 and its buttons carrying their choice', () => {
    const cards: Card[] = Array.from({ length: 12 }, (_, i) => ({
      title: `Concert ${i + 1} ${'with a very long name '.repeat(5)}`,
      subtitle: `**Friday** at ${i + 1} pm, ${'doors open early '.repeat(6)}`,
      imageUrl: `https://cdn.example.com/${i}.png`,
      buttons: [
        { kind: 'postback', label: 'Book', payload: `book-${i + 1}` },
        { kind: 'url', label: 'Details', url: `https://shop.example.com/r/${i}` },
      ],
    }));
    const rendered = renderMessage({ type: 'carousel', cards }, MESSENGER_CAPABILITIES, 7);
    expect(rendered.degraded).toBe(false);
    const sent = rendered.parts.map(messageFor) as {
      attachment: { payload: { template_type: string; elements: Record<string, unknown>[] } };
    }[];
    expect(sent.map((message) => message.attachment.payload.template_type)).toEqual(['generic', 'generic']);
    expect(sent.map((message) => message.attachment.payload.elements.length)).toEqual([10, 2]);
    const first = sent[0]!.attachment.payload.elements[0] as { title: string; subtitle: string; buttons: unknown[] };
    expect(first.title).toHaveLength(80);
    expect(first.title.endsWith('…')).toBe(true);
    expect(first.subtitle.startsWith('Friday at 1 pm')).toBe(true);
    expect(first.subtitle.length).toBeLessThanOrEqual(80);
    expect(first.buttons).toEqual([
      { type: 'postback', title: 'Book', payload: 'choice:7.0' },
      { type: 'web_url', title: 'Details', url: 'https://shop.example.com/r/0' },
    ]);
    const last = sent[1]!.attachment.payload.elements[1] as { buttons: { title: string; payload?: string }[] };
    // Titles are unique across the message; the number runs on across the cards.
    expect(last.buttons[0]).toEqual({ type: 'postback', title: 'Book (12)', payload: 'choice:7.11' });
    expect(rendered.choices[11]).toMatchObject({
      number: 12,
      message: { type: 'postback', label: 'Book', payload: 'book-12' },
    });
  });

  it('when a card has four buttons or only a title, then it goes on its own between card sets and the message is degraded; a card whose image has no address Meta can fetch goes in its set without it', () => {
    const book = (n: number): Button => ({ kind: 'postback', label: `Book ${n}`, payload: `book-${n}` });
    const rendered = renderMessage(
      {
        type: 'carousel',
        cards: [
          { title: 'One', subtitle: 'First', buttons: [book(1)] },
          { title: 'Two', imageUrl: 'https://cdn.example.com/2.png', buttons: [1, 2, 3, 4].map(book) },
          { title: 'Three', imageUrl: 'https://cdn.example.com/3.png' },
          { title: 'Four alone' },
          { title: 'Five', subtitle: 'An image of this site', imageUrl: '/images/five.png' },
          { title: 'Six', subtitle: 'Last' },
        ],
      },
      MESSENGER_CAPABILITIES,
      3,
    );
    expect(rendered.degraded).toBe(true);
    expect(rendered.parts.map((part) => part.kind)).toEqual(['cards', 'image', 'text', 'cards', 'text', 'cards']);
    expect(rendered.parts[2]).toMatchObject({ kind: 'text', text: expect.stringMatching(/^2\. Book 1 \(2\)\n3\. /) });
    expect(messageFor(rendered.parts[4]!)).toEqual({ text: 'Four alone' });
    expect(rendered.parts[5]).toEqual({
      kind: 'cards',
      cards: [
        expect.objectContaining({ title: 'Five', subtitle: 'An image of this site' }),
        expect.objectContaining({ title: 'Six' }),
      ],
    });
    expect(rendered.parts[5]).not.toHaveProperty(['cards', 0, 'imageUrl']);
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

/** A Send API body carrying a generic template of these elements (`sharable` and such go in its payload). */
function generic(elements: Record<string, unknown>[], more: Record<string, unknown> = {}) {
  return {
    recipient: { id: '123' },
    messaging_type: 'RESPONSE',
    message: { attachment: { type: 'template', payload: { template_type: 'generic', elements, ...more } } },
  };
}

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
      generic(Array.from({ length: 11 }, () => ({ title: 't', subtitle: 's' }))),
      generic([{ title: 'A title alone' }]),
      generic([{ title: 'x'.repeat(81), subtitle: 's' }]),
      generic([{ title: 't', subtitle: 'x'.repeat(81) }]),
      generic([{ title: 't', buttons: [1, 2, 3, 4].map((n) => ({ type: 'postback', title: `b${n}`, payload: 'p' })) }]),
      generic([{ title: 't', buttons: [{ type: 'postback', title: 'b', payload: 'p'.repeat(1001) }] }]),
      generic([{ title: 't', default_action: { type: 'web_url', url: 'https://x.example', title: 'no title here' } }]),
      generic([{ title: 't', subtitle: 's', quantity: 1 }]),
    ])
      expect(messengerSendProblems(broken), JSON.stringify(broken).slice(0, 120)).not.toEqual([]);
  });

  it('when a generic template is within the reference, then the stand-in takes it', async () => {
    const { messengerSendProblems } = await import('./messenger-stand-in.ts');
    const buttons = [
      { type: 'postback', title: 'x'.repeat(20), payload: 'p'.repeat(1000) },
      { type: 'web_url', title: 'Open', url: 'https://x.example/a', webview_height_ratio: 'tall' },
      { type: 'web_url', title: 'Share', url: 'https://x.example/b', webview_share_button: 'hide' },
    ];
    for (const fine of [
      generic(Array.from({ length: 10 }, (_, i) => ({ title: 'x'.repeat(80), subtitle: `${i}`.repeat(80) }))),
      generic([{ title: 't', image_url: 'https://cdn.example.com/a.png' }]),
      generic([{ title: 't', buttons }]),
      generic([
        { title: 't', default_action: { type: 'web_url', url: 'https://x.example', messenger_extensions: false } },
      ]),
      generic([{ title: 't', subtitle: 's' }], { sharable: true }),
    ])
      expect(messengerSendProblems(fine), JSON.stringify(fine).slice(0, 120)).toEqual([]);
  });
});
