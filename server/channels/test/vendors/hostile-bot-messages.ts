/**
 * Bot messages over every vendor limit, for property tests of the rendering ladder and the connectors:
 * long texts, many buttons and cards, long and duplicate titles, whitespace-only labels, emoji with
 * modifiers and joiners, combining marks, right-to-left scripts. What a vendor would refuse if a
 * connector passed it on unchanged.
 */
import fc from 'fast-check';
import type { BotMessage, Button, Card, QuickReply } from '../../../../shared/protocol.ts';

/** Graphemes that break naive cutting: ZWJ families, skin tones, flags, combining marks, RTL, CJK. */
const trickyGraphemes = ['👩‍👩‍👧‍👦', '👍🏽', '🇺🇦', 'e\u0301', 'ñ', 'ש', 'مرحبا', '漢', '\u200f', '🏳️‍🌈', 'Z̤͔ͧ̑̓', ' ', '\n'];

const tricky = fc.constantFrom(...trickyGraphemes);
const plain = fc.string({ unit: 'grapheme', minLength: 0, maxLength: 12 });
const piece = fc.oneof({ weight: 2, arbitrary: plain }, { weight: 1, arbitrary: tricky });

/** A text of `min`–`max` pieces; pieces may be whole tricky graphemes. */
export const hostileText = (min: number, max: number) =>
  fc.array(piece, { minLength: min, maxLength: max }).map((pieces) => pieces.join(''));

/** A label: usually short, sometimes far over any vendor's title limit, sometimes blank. */
export const hostileLabel = fc.oneof(
  { weight: 4, arbitrary: hostileText(1, 4) },
  { weight: 2, arbitrary: hostileText(10, 40) },
  { weight: 1, arbitrary: fc.constantFrom('   ', '\n', '', 'Yes', 'Yes', 'YES') },
);

const httpsUrl = fc.webPath().map((path) => `https://example.com/r${path}`);

export const hostileButton: fc.Arbitrary<Button> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('postback' as const),
      label: hostileLabel,
      payload: fc.string({ minLength: 1, maxLength: 300 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('dialog' as const),
      label: hostileLabel,
      dialogId: fc.constantFrom('home', 'billing', 'support'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('url' as const),
      label: hostileLabel,
      url: fc.oneof(httpsUrl, fc.constantFrom('http://example.com/x', 'https://localhost/x')),
    }),
  },
);

const quickReply: fc.Arbitrary<QuickReply> = fc.record({
  label: hostileLabel,
  payload: fc.string({ minLength: 1, maxLength: 300 }),
});

/** Duplicated entries on purpose: the same title twice must still name one choice each. */
const withDuplicates = <T>(item: fc.Arbitrary<T>, max: number) =>
  fc
    .array(item, { minLength: 0, maxLength: max })
    .chain((items) =>
      items.length === 0 ? fc.constant(items) : fc.subarray(items).map((again) => [...items, ...again].slice(0, max)),
    );

const card: fc.Arbitrary<Card> = fc.record(
  {
    title: hostileLabel,
    subtitle: hostileText(0, 60),
    imageUrl: httpsUrl,
    imageAlt: hostileLabel,
    buttons: withDuplicates(hostileButton, 5),
  },
  { requiredKeys: ['title'] },
);

export const hostileBotMessage: fc.Arbitrary<BotMessage> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        type: fc.constant('text' as const),
        text: fc.oneof(hostileText(1, 30), hostileText(300, 700)),
        buttons: withDuplicates(hostileButton, 14),
        quickReplies: withDuplicates(quickReply, 14),
      },
      { requiredKeys: ['type', 'text'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('image' as const),
      url: fc.oneof(httpsUrl, fc.constant('http://example.com/cat.png')),
      alt: hostileLabel,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('carousel' as const),
      cards: fc.array(card, { minLength: 1, maxLength: 12 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('notice' as const),
      level: fc.constantFrom('info' as const, 'fatal' as const),
      text: hostileText(1, 400),
    }),
  },
);
