import { describe, expect, it } from 'vitest';
import { groupMisses, MAX_DISTINCT, modelsOf } from './miss-groups.ts';
import { analyserFor } from '../../nlp/language.ts';
import { addPhrasings, teachableOf } from './teachable.ts';
import { learnTypos } from './typo-words.ts';

const definition = teachableOf({
  settings: { locale: 'en' },
  intents: [
    {
      id: 'track',
      dialog: 'track',
      utterances: [
        'track my order',
        'order status',
        'has my order shipped',
        'tracking number',
        'when does my order arrive',
      ],
    },
    {
      id: 'refund',
      dialog: 'refund',
      utterances: ['I want a refund', 'refund my order', 'can I get a refund', 'give me a refund', 'refund please'],
    },
  ],
  faq: [{ id: 'opening-hours', questions: ['When are you open?'], answer: 'Nine to five.' }],
});

describe('grouping misses by likeness', () => {
  it('when inputs share their content words or spelling, then they form one group most frequent first; other inputs stay apart', async () => {
    const models = await modelsOf(definition, undefined);
    const groups = await groupMisses(
      [
        { text: 'where is the shop', count: 1 },
        { text: 'Where is my parcel', count: 4 },
        { text: 'parcel where??', count: 1 },
        { text: 'my parcel has not arrived', count: 2 },
        { text: 'I want my money back', count: 1 },
        { text: 'refund please now', count: 1 },
        { text: 'are you open on sunday', count: 3 },
      ],
      definition,
      { models },
    );
    expect(groups.map((g) => [g.count, g.examples.map((e) => e.text)])).toEqual([
      [7, ['Where is my parcel', 'my parcel has not arrived', 'parcel where??']],
      [3, ['are you open on sunday']],
      [1, ['I want my money back']],
      [1, ['refund please now']],
      [1, ['where is the shop']],
    ]);
    // The FAQ pair about opening is the nearest for the question about Sunday; the refund intent for the refund.
    expect(groups[1]!.suggestion.faq?.id).toBe('opening-hours');
    expect(groups[3]!.suggestion.intent?.id).toBe('refund');
    expect(groups[0]!.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('when two inputs differ by a typo alone, then they form one group under the spelling the bot uses, and short words one letter apart stay apart', async () => {
    const models = await modelsOf(definition, undefined);
    const groups = await groupMisses(
      [
        { text: 'where is my parcel', count: 2 },
        { text: 'where is my parcle', count: 1 },
        { text: 'Where is my pracel??', count: 1 },
        { text: 'my cart', count: 1 },
        { text: 'my card', count: 1 },
      ],
      definition,
      { models },
    );
    expect(groups.map((g) => g.examples.map((e) => e.text))).toEqual([
      ['where is my parcel', 'where is my parcle', 'Where is my pracel??'],
      ['my card'],
      ['my cart'],
    ]);
  });

  it("when a typo of a word the bot uses is the commoner spelling among the inputs, then it still reads as the bot's word", () => {
    const typos = learnTypos(
      [
        { text: 'refnud please', count: 9 },
        { text: 'refund', count: 1, trusted: true },
      ],
      analyserFor('en'),
    );
    expect([...typos.folded]).toEqual([['refnud', 'refund']]);
    expect(typos.fold('Refnud please!')).toBe('refund please');
  });

  it('when the models have no evidence for any intent or FAQ pair, then the group offers none', async () => {
    const models = await modelsOf(definition, undefined);
    const [group] = await groupMisses([{ text: 'Where is my parcel', count: 1 }], definition, { models });
    expect(group!.suggestion).toEqual({ intent: null, faq: null });
  });

  it("when the definition already holds some or all of a group's inputs, then each is marked with where it is, and the groups taught in full are listed last", async () => {
    const taught = teachableOf({
      intents: [{ id: 'track', utterances: ['track my order', 'WHERE is my parcel'] }],
      faq: [{ id: 'shipping', questions: ['where is  my parcel', 'do you ship to mars'] }],
    });
    const groups = await groupMisses(
      [
        { text: 'where is my parcel', count: 5 },
        { text: 'Do you ship to Mars', count: 1 },
        { text: 'do you ship to Mars please', count: 1 },
      ],
      taught,
      { models: { classifier: null, faq: null } },
    );
    expect(groups.map((g) => [g.examples.map((e) => [e.text, e.taught]), g.taught])).toEqual([
      [
        [
          ['Do you ship to Mars', { kind: 'faq', id: 'shipping' }],
          ['do you ship to Mars please', null],
        ],
        { all: false, to: [{ kind: 'faq', id: 'shipping' }] },
      ],
      [[['where is my parcel', { kind: 'intent', id: 'track' }]], { all: true, to: [{ kind: 'intent', id: 'track' }] }],
    ]);
  });

  it('when there are more distinct inputs than the bound, then only the most frequent are grouped', async () => {
    const texts = Array.from({ length: MAX_DISTINCT + 50 }, (_, i) => ({
      text: `word${i} other${i}`,
      count: i < 10 ? 5 : 1,
    }));
    const groups = await groupMisses(texts, definition, { models: { classifier: null, faq: null } });
    expect(groups.reduce((n, g) => n + g.distinct, 0)).toBe(MAX_DISTINCT);
    expect(groups.slice(0, 10).every((g) => g.count >= 5)).toBe(true);
  });
});

describe('adding inputs to the draft', () => {
  it('when inputs are added to an intent, then those it lacks are appended once each, the rest are skipped, and the given definition is unchanged', () => {
    const written = { intents: [{ id: 'track', dialog: 'track', utterances: ['Track my order'] }], faq: [] };
    const {
      definition: changed,
      added,
      skipped,
    } = addPhrasings(written, { kind: 'intent', id: 'track' }, [
      'track  my order',
      ' Where is my parcel ',
      'where is my parcel',
    ]);
    expect([added, skipped]).toEqual([['Where is my parcel'], ['track my order', 'where is my parcel']]);
    expect((changed as typeof written).intents[0]!.utterances).toEqual(['Track my order', 'Where is my parcel']);
    expect(written.intents[0]!.utterances).toEqual(['Track my order']);
  });

  it('when the FAQ pair named is not in the draft, then 404 says to pick one from the list', () => {
    expect(() => addPhrasings({ faq: [] }, { kind: 'faq', id: 'gone' }, ['x'])).toThrow(
      /no FAQ pair "gone"; pick one from the list/,
    );
  });
});
