import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage, Button, Card, QuickReply } from '../../../../shared/protocol.ts';
import { choiceByAnswer, renderMessage, type Choice, type Rendered } from '../../connector/ladder.ts';
import { telegramApi } from '../telegram-api.ts';
import { TELEGRAM_CAPABILITIES, telegramConnector } from '../telegram-connector.ts';
import { startTelegramStandIn, type TelegramStandIn } from './telegram-stand-in.ts';

/** Labels that break naive rendering: long, repeated, blank, emoji, combining marks, right to left, digits. */
const label = fc.oneof(
  fc.constantFrom('Yes', 'yes', 'Yes', '', '   ', '2', '1.', 'Basic', 'Pro'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 90 }),
  fc.array(fc.constantFrom('👍🏽', '👩‍👩‍👧‍👦', 'e\u0301', 'שלום ', 'مرحبا', 'x', ' '), { minLength: 1, maxLength: 40 }).map((parts) => parts.join('')),
);
const longText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.constantFrom('a', '**bold** and *italic* with `code` and [a link](https://example.com)', 'ada\\_l said \\*hi\\*'),
  fc.tuple(fc.constantFrom('x', '👩‍👩‍👧‍👦', 'e\u0301', 'ש'), fc.integer({ min: 1000, max: 5000 })).map(([unit, times]) => unit.repeat(times)),
);
const button: fc.Arbitrary<Button> = fc.oneof(
  fc.record({ kind: fc.constant('postback' as const), label, payload: fc.string({ minLength: 1, maxLength: 300 }) }),
  fc.record({ kind: fc.constant('dialog' as const), label, dialogId: fc.constantFrom('help', 'order') }),
  fc.record({ kind: fc.constant('url' as const), label, url: fc.constantFrom('https://shop.example.com/r/abc', 'http://localhost:3000/r/xyz', 'https://example.org/' + 'p'.repeat(500)) }),
);
const quickReply: fc.Arbitrary<QuickReply> = fc.record({ label, payload: fc.string({ minLength: 1, maxLength: 100 }) });
const card: fc.Arbitrary<Card> = fc.record(
  { title: longText, subtitle: longText, imageUrl: fc.constantFrom('https://cdn.example.com/a.png'), buttons: fc.array(button, { maxLength: 6 }) },
  { requiredKeys: ['title'] },
);
const message: fc.Arbitrary<BotMessage> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: longText, buttons: fc.array(button, { maxLength: 20 }), quickReplies: fc.array(quickReply, { maxLength: 20 }) }, { requiredKeys: ['type', 'text'] }),
  fc.record({ type: fc.constant('image' as const), url: fc.constant('https://cdn.example.com/b.jpg'), alt: label }),
  fc.record({ type: fc.constant('carousel' as const), cards: fc.array(card, { minLength: 1, maxLength: 12 }) }),
  fc.record({ type: fc.constant('notice' as const), level: fc.constantFrom('info' as const, 'fatal' as const), text: longText }),
);

/** What a user can do with what they see: press a button (its callback_data), tap a quick reply (its text), or type a title or number. */
function answerable(rendered: Rendered, seq: number): void {
  const { choices } = rendered;
  for (const choice of choices) {
    // Typing the title shown (or tapping a reply keyboard button, which sends it) names this choice.
    expect(choiceByAnswer(choice.title, choices)).toBe(choice);
    // The number names it too, unless another choice is titled with that very number.
    if (!choices.some((other) => other !== choice && [other.title, other.label.trim()].some((t) => t.toLowerCase() === String(choice.number)))) {
      expect(choiceByAnswer(String(choice.number), choices)).toBe(choice);
    }
  }
  const shown = new Set<string>();
  for (const part of rendered.parts) {
    for (const rendered of [...(part.buttons ?? []), ...(part.kind === 'text' ? (part.list?.rows ?? []) : [])]) {
      if (rendered.kind !== 'choice') continue;
      const [at, index] = rendered.id.split('.').map(Number);
      expect(at).toBe(seq);
      expect(choices[index!]?.title).toBe(rendered.title);
      shown.add(rendered.id);
    }
    if (part.kind === 'text') for (const reply of part.quickReplies ?? []) expect(choiceByAnswer(reply, choices)?.title).toBe(reply);
  }
  // Every choice is on the screen: as a button, a quick reply, or a numbered line.
  const text = rendered.parts.map((part) => (part.kind === 'text' ? part.text : (part.caption ?? ''))).join('\n');
  const replies = new Set(rendered.parts.flatMap((part) => (part.kind === 'text' ? (part.quickReplies ?? []) : [])));
  for (const choice of choices) expect(shown.has(choice.id) || replies.has(choice.title) || text.includes(`${choice.number}. ${choice.title}`)).toBe(true);
}

describe('the rendering ladder on Telegram', () => {
  let standIn: TelegramStandIn;
  beforeAll(async () => {
    standIn = await startTelegramStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('when any message is rendered (over-long texts, many or duplicate buttons, emoji, combining marks, right to left), then Telegram accepts every part and every choice can be answered', async () => {
    const connector = telegramConnector({ call: telegramApi({ token: standIn.token, apiUrl: standIn.url }), secret: 'unused-secret-0123456789', token: standIn.token });
    let parts = 0;
    await fc.assert(
      fc.asyncProperty(message, fc.integer({ min: 1, max: 1_000_000 }), async (said, seq) => {
        const rendered = renderMessage(said, TELEGRAM_CAPABILITIES, seq);
        expect(rendered.parts.length).toBeGreaterThan(0);
        for (const part of rendered.parts) {
          await connector.send('4242', part);
          parts++;
        }
        answerable(rendered, seq);
      }),
      { numRuns: 300 },
    );
    const refused = standIn.calls.filter((call) => call.status !== 200);
    expect(refused.map((call) => call.description)).toEqual([]);
    expect(standIn.calls).toHaveLength(parts);
  });

  it('when nine buttons are more than Telegram shows, then the message is numbered text, and "9" or a title picks the choice', () => {
    const buttons: Button[] = Array.from({ length: 9 }, (_, i) => ({ kind: 'postback', label: `Option ${i + 1}`, payload: `p${i + 1}` }));
    const rendered = renderMessage({ type: 'text', text: 'Pick one.', buttons }, TELEGRAM_CAPABILITIES, 7);
    expect(rendered.degraded).toBe(true);
    expect(rendered.parts).toEqual([{ kind: 'text', text: `Pick one.\n\n${buttons.map((b, i) => `${i + 1}. ${b.label}`).join('\n')}` }]);
    expect((choiceByAnswer('9', rendered.choices) as Choice).message).toEqual({ type: 'postback', label: 'Option 9', payload: 'p9' });
    expect((choiceByAnswer(' option 3 ', rendered.choices) as Choice).message).toEqual({ type: 'postback', label: 'Option 3', payload: 'p3' });
  });
});
