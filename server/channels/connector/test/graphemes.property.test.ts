import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncate, uniqueTitles, utf8Bytes } from '../graphemes.ts';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);

/** Texts made of what breaks naive cutting: emoji with modifiers and joiners, combining marks, right-to-left script, plain letters. */
const tricky = fc
  .array(
    fc.constantFrom(
      'a',
      'Z',
      ' ',
      '👍🏽',
      '👩‍👩‍👧‍👦',
      '🇩🇪',
      'e\u0301',
      'ñ',
      'שלום',
      'مرحبا',
      '\u200f',
      '漢',
      'x\u0300\u0301\u0302',
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));

describe('cutting texts for a vendor', () => {
  it('when any text is cut to any limit, then it fits, ends in an ellipsis when cut, and splits no grapheme', () => {
    fc.assert(
      fc.property(
        fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 200 })),
        fc.integer({ min: 1, max: 120 }),
        (text, max) => {
          const cut = truncate(text, max);
          expect(cut.length).toBeLessThanOrEqual(max);
          // Counted in UTF-8 bytes instead (a user's text, a payload id): the same, within the bytes.
          const inBytes = truncate(text, max, utf8Bytes);
          expect(utf8Bytes(inBytes)).toBeLessThanOrEqual(max);
          expect(
            graphemes(text)
              .join('')
              .startsWith(inBytes.endsWith('…') && utf8Bytes(text) > max ? inBytes.slice(0, -1).trimEnd() : inBytes),
          ).toBe(true);
          if (text.length <= max) {
            expect(cut).toBe(text);
            return;
          }
          expect(cut.endsWith('…')).toBe(true);
          const kept = graphemes(cut.slice(0, -1));
          expect(graphemes(text).slice(0, kept.length).join('').trimEnd()).toBe(kept.join(''));
        },
      ),
    );
  });

  it('when titles repeat or differ only past the limit, then every title shown is unique, whatever the case, and within the limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('Yes', 'yes', 'YES', ' Yes ', '', 'Yes (2)'), tricky), { maxLength: 30 }),
        fc.integer({ min: 8, max: 64 }),
        (titles, max) => {
          const shown = uniqueTitles(titles, max);
          expect(new Set(shown.map((t) => t.toLowerCase())).size).toBe(titles.length);
          for (const title of shown) {
            expect(title.length).toBeLessThanOrEqual(max);
            expect(title.trim()).not.toBe('');
          }
        },
      ),
    );
  });
});
