import fc from 'fast-check';
import { expect } from 'vitest';
import type { BotMessage, Button, Card, QuickReply } from '../../../../shared/protocol.ts';
import { choiceByAnswer, type Rendered, type RenderedButton, type RenderedPart } from '../ladder.ts';

/**
 * What the property tests of every connector's ladder generate (messages over every limit) and
 * check (every rendered choice can be answered), one definition for all the stand-ins.
 */

/** Labels that break naive rendering: long, repeated, blank, emoji, combining marks, right to left, digits. */
const label = fc.oneof(
  fc.constantFrom('Yes', 'yes', 'Yes', '', '   ', '2', '1.', 'Basic', 'Pro'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 90 }),
  fc
    .array(fc.constantFrom('👍🏽', '👩‍👩‍👧‍👦', 'e\u0301', 'שלום ', 'مرحبا', 'x', ' '), { minLength: 1, maxLength: 40 })
    .map((parts) => parts.join('')),
);
const longText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.constantFrom(
    'a',
    '**bold** and *italic* with `code` and [a link](https://example.com)',
    'ada\\_l said \\*hi\\*',
    '<!channel> & <@U061F7AUR> <https://x.example|x>',
  ),
  fc
    .tuple(fc.constantFrom('x', '👩‍👩‍👧‍👦', 'e\u0301', 'ש'), fc.integer({ min: 1000, max: 5000 }))
    .map(([unit, times]) => unit.repeat(times)),
);
const button: fc.Arbitrary<Button> = fc.oneof(
  fc.record({ kind: fc.constant('postback' as const), label, payload: fc.string({ minLength: 1, maxLength: 300 }) }),
  fc.record({ kind: fc.constant('dialog' as const), label, dialogId: fc.constantFrom('help', 'order') }),
  fc.record({
    kind: fc.constant('url' as const),
    label,
    url: fc.constantFrom(
      'https://shop.example.com/r/abc',
      'http://localhost:3000/r/xyz',
      'https://example.org/' + 'p'.repeat(500),
    ),
  }),
);
const quickReply: fc.Arbitrary<QuickReply> = fc.record({ label, payload: fc.string({ minLength: 1, maxLength: 100 }) });
const card: fc.Arbitrary<Card> = fc.record(
  {
    title: longText,
    subtitle: longText,
    imageUrl: fc.constantFrom('https://cdn.example.com/a.png'),
    imageAlt: label,
    buttons: fc.array(button, { maxLength: 6 }),
  },
  { requiredKeys: ['title'] },
);
/** Carousels of 1 to 15 cards (past a card set's 10), long texts, titles alone, up to 6 buttons a card. */
export const carousel: fc.Arbitrary<BotMessage> = fc.record({
  type: fc.constant('carousel' as const),
  cards: fc.array(card, { minLength: 1, maxLength: 15 }),
});
export const message: fc.Arbitrary<BotMessage> = fc.oneof(
  fc.record(
    {
      type: fc.constant('text' as const),
      text: longText,
      buttons: fc.array(button, { maxLength: 20 }),
      quickReplies: fc.array(quickReply, { maxLength: 20 }),
    },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record({ type: fc.constant('image' as const), url: fc.constant('https://cdn.example.com/b.jpg'), alt: label }),
  carousel,
  fc.record({
    type: fc.constant('notice' as const),
    level: fc.constantFrom('info' as const, 'fatal' as const),
    text: longText,
  }),
);

/** Every button a part shows: its own, its list's rows, its cards'. */
const buttonsOf = (part: RenderedPart): readonly RenderedButton[] =>
  part.kind === 'cards'
    ? part.cards.flatMap((card) => card.buttons ?? [])
    : [...(part.buttons ?? []), ...(part.kind === 'text' ? (part.list?.rows ?? []) : [])];

/** What a user can do with what they see: press a button (its callback_data), tap a quick reply (its text), or type a title or number. */
export function answerable(rendered: Rendered, seq: number): void {
  const { choices } = rendered;
  for (const choice of choices) {
    // Typing the title shown (or tapping a reply keyboard button, which sends it) names this choice.
    expect(choiceByAnswer(choice.title, choices)).toBe(choice);
    // The number names it too, unless another choice is titled with that very number.
    if (
      !choices.some(
        (other) =>
          other !== choice && [other.title, other.label.trim()].some((t) => t.toLowerCase() === String(choice.number)),
      )
    ) {
      expect(choiceByAnswer(String(choice.number), choices)).toBe(choice);
    }
  }
  const shown = new Set<string>();
  for (const part of rendered.parts) {
    for (const rendered of buttonsOf(part)) {
      if (rendered.kind !== 'choice') continue;
      const [at, index] = rendered.id.split('.').map(Number);
      expect(at).toBe(seq);
      expect(choices[index!]?.title).toBe(rendered.title);
      shown.add(rendered.id);
    }
    if (part.kind === 'text')
      for (const reply of part.quickReplies ?? []) expect(choiceByAnswer(reply, choices)?.title).toBe(reply);
  }
  // Every choice is on the screen: as a button, a quick reply, or a numbered line.
  const text = rendered.parts
    .map((part) =>
      part.kind === 'text' ? part.text : part.kind === 'image' ? (part.caption ?? '') : part.cards.map((c) => c.title),
    )
    .join('\n');
  const replies = new Set(rendered.parts.flatMap((part) => (part.kind === 'text' ? (part.quickReplies ?? []) : [])));
  for (const choice of choices)
    expect(
      shown.has(choice.id) || replies.has(choice.title) || text.includes(`${choice.number}. ${choice.title}`),
    ).toBe(true);
}
