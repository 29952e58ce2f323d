import { describe, expect, it } from 'vitest';
import { DEMO_BOT_DEFINITION } from '../config.ts';
import { loadDefinition } from '../definition/load.ts';
import type { Intent } from '../definition/schema.ts';
import { createFaqMatcher } from './faq-matcher.ts';
import { trainIntentClassifier } from './intent-classifier.ts';
import { LABELLED_UTTERANCES } from './labelled-set.ts';

/** Routed at the threshold a bot whose definition names none runs with: the one the classifier calibrated at load. */
async function routed(intents: readonly Intent[], locale: string, text: string): Promise<string | null> {
  const result = await (await trainIntentClassifier(intents, locale)).classify(text);
  return result.intent !== null && result.score >= result.threshold ? result.intent : null;
}

/** Share of the labelled set the demo bot routes right at its own threshold. */
async function demoAccuracy(): Promise<{ correct: number; total: number; misses: string[] }> {
  const definition = await loadDefinition(DEMO_BOT_DEFINITION);
  const classifier = await trainIntentClassifier(definition.intents, definition.settings.locale);
  let correct = 0;
  const misses: string[] = [];
  for (const [text, expected] of LABELLED_UTTERANCES) {
    const result = await classifier.classify(text);
    const routedTo =
      result.intent !== null && result.score >= (definition.settings.nlpThreshold ?? result.threshold)
        ? result.intent
        : null;
    if (routedTo === expected) correct++;
    else
      misses.push(
        `${JSON.stringify(text)}: expected ${expected ?? 'none'}, got ${routedTo ?? 'none'} (${result.intent ?? '-'} ${result.score})`,
      );
  }
  return { correct, total: LABELLED_UTTERANCES.length, misses };
}

const shop: Intent[] = [
  {
    id: 'track',
    dialog: 'track',
    utterances: [
      'where is my order',
      'track my parcel',
      'has my package shipped yet',
      'when will my delivery arrive',
      'my order has not arrived',
      'status of my shipment',
    ],
  },
  {
    id: 'cancel',
    dialog: 'cancel',
    utterances: [
      'cancel my order',
      'I want to cancel the purchase',
      'please stop my order',
      'I changed my mind, cancel it',
      'undo my order',
      'cancel the subscription',
    ],
  },
  {
    id: 'hours',
    dialog: 'hours',
    utterances: [
      'when are you open',
      'what are your opening hours',
      'are you open on sunday',
      'what time do you close',
      'opening times',
      'is the shop open today',
    ],
  },
];

describe('intent classifier', () => {
  it('when trained on the demo intents, then it routes at least 80 % of a held-out labelled set right', async () => {
    const { correct, total, misses } = await demoAccuracy();
    console.log(
      `intent accuracy on the labelled set: ${correct}/${total} = ${((100 * correct) / total).toFixed(1)} %${misses.length ? `\n  misses:\n  ${misses.join('\n  ')}` : ''}`,
    );
    expect(correct / total).toBeGreaterThanOrEqual(0.8);
  });

  it('when a bot has no intents, then every text is classified as none', async () => {
    const classifier = await trainIntentClassifier([], 'en');
    expect(await classifier.classify('hello')).toMatchObject({ intent: null, score: 0 });
  });

  it('when a question is reworded from the examples, then it is routed to its intent', async () => {
    expect(await routed(shop, 'en', 'where is my parcel?')).toBe('track');
    expect(await routed(shop, 'en', 'I would like to cancel my order please')).toBe('cancel');
    expect(await routed(shop, 'en', 'are you open today')).toBe('hours');
    // A typo in the word that carries the meaning.
    expect(await routed(shop, 'en', 'cancle my order')).toBe('cancel');
  });

  it('when a text is about nothing the bot knows, then no intent clears the threshold, even with only two intents', async () => {
    const two = shop.slice(0, 2);
    for (const text of [
      'how is my driving',
      'the cat sat on the mat',
      'purple elephants dance',
      'what is the capital of France',
    ]) {
      const result = await (await trainIntentClassifier(two, 'en')).classify(text);
      expect(result.score, text).toBeLessThan(result.threshold);
    }
  });

  it('when a text is too far from every example to be routed, then the classifier still names its most probable intent, with a score of 0, first in its list', async () => {
    const classifier = await trainIntentClassifier(shop, 'en');
    for (const text of ['what is the weather', 'hello there']) {
      const result = await classifier.classify(text);
      // An author reading the NLP log sees which intent the text came nearest to, not a blank; the score keeps it from being routed.
      expect(result.intent, text).not.toBeNull();
      expect(result.score, text).toBe(0);
      expect(result.classifications[0], text).toEqual({ intent: result.intent, score: 0 });
    }
  });

  it('when the demo bot is asked a close paraphrase of an utterance, then it clears the threshold; a text about nothing it knows stays under it', async () => {
    const definition = await loadDefinition(DEMO_BOT_DEFINITION);
    const classifier = await trainIntentClassifier(definition.intents, definition.settings.locale);
    for (const intent of definition.intents) {
      const [first] = intent.utterances;
      if (!first) continue;
      // A paraphrase an author would expect to work: the utterance with a polite filler around it.
      const result = await classifier.classify(`please ${first.toLowerCase()} now`);
      expect(result.intent, first).toBe(intent.id);
      expect(result.score, first).toBeGreaterThanOrEqual(definition.settings.nlpThreshold ?? result.threshold);
    }
    for (const text of [
      'what is the capital of France',
      'my tomato plants need watering',
      'who won the football match yesterday',
    ]) {
      const result = await classifier.classify(text);
      expect(result.score, text).toBeLessThan(definition.settings.nlpThreshold ?? result.threshold);
    }
  });

  it('when a bot speaks German, then inflected German questions reach their intent', async () => {
    const german: Intent[] = [
      {
        id: 'bestellung',
        dialog: 'b',
        utterances: [
          'Wo ist meine Bestellung?',
          'Wann kommt mein Paket an?',
          'Sendungsverfolgung für meine Lieferung',
          'Ist meine Bestellung schon verschickt?',
        ],
      },
      {
        id: 'storno',
        dialog: 's',
        utterances: [
          'Ich möchte meine Bestellung stornieren',
          'Bitte den Auftrag stornieren',
          'Kauf rückgängig machen',
          'Ich will nicht mehr kaufen',
        ],
      },
      {
        id: 'zeiten',
        dialog: 'z',
        utterances: [
          'Wann haben Sie geöffnet?',
          'Wie sind die Öffnungszeiten?',
          'Haben Sie am Sonntag offen?',
          'Bis wann ist der Laden offen?',
        ],
      },
    ];
    expect(await routed(german, 'de-DE', 'Wann kommen meine Pakete an')).toBe('bestellung');
    expect(await routed(german, 'de-DE', 'Können Sie die Bestellungen stornieren?')).toBe('storno');
    expect(await routed(german, 'de-DE', 'Öffnungszeit am Sonntag')).toBe('zeiten');
    expect(await routed(german, 'de-DE', 'Wie wird das Wetter morgen in Berlin')).toBeNull();
  });

  it('when two bots differ only in locale, then their models differ too', async () => {
    const en = await (await trainIntentClassifier(shop, 'en')).classify('where is my order');
    const de = await (await trainIntentClassifier(shop, 'de')).classify('where is my order');
    expect(en.modelId).not.toBe(de.modelId);
  });
});

describe('FAQ matcher', () => {
  const matcher = createFaqMatcher([
    { id: 'hours', questions: ['When are you open?', 'What are your opening hours?'], answer: 'Always.' },
    { id: 'price', questions: ['How much does delivery cost?'], answer: 'Free.' },
    { id: 'shipping', questions: ['How long does shipping take?'], answer: 'Two days.' },
    { id: 'returns', questions: ['Can I return an item?'], answer: 'Within 30 days.' },
  ]);
  const answered = async (text: string): Promise<string | null> => {
    const m = await matcher.match(text);
    return m.score >= m.threshold ? m.id : null;
  };

  it('when a question is asked in other words, with filler words or a typo, then the right pair answers at the default threshold', async () => {
    expect(await answered('how long does the shipping take')).toBe('shipping');
    expect(await answered('how long will shiping take?')).toBe('shipping');
    expect(await answered('what are the opening hours')).toBe('hours');
    expect(await answered('how much is delivery')).toBe('price');
    expect(await answered('is it possible to return items')).toBe('returns');
    expect((await matcher.match('How much does delivery cost?')).score).toBe(1);
  });

  it('when a question is unrelated, then nothing scores at the default threshold', async () => {
    for (const text of ['quantum chromodynamics', 'how is my driving', 'tell me a joke about cats']) {
      const m = await matcher.match(text);
      expect(m.score, text).toBeLessThan(m.threshold);
    }
  });

  it('when a pair has several phrasings, then a question close to any of them answers', async () => {
    expect(await answered('when do you open')).toBe('hours');
    expect(await answered('your opening hours please')).toBe('hours');
  });

  it('when synonyms are given, then a question in the other word answers', async () => {
    const plain = createFaqMatcher([
      { id: 'lost', questions: ['My parcel is lost'], answer: 'Sorry.' },
      { id: 'other', questions: ['Change my address'], answer: 'Ok.' },
    ]);
    const withSynonyms = createFaqMatcher(
      [
        { id: 'lost', questions: ['My parcel is lost'], answer: 'Sorry.' },
        { id: 'other', questions: ['Change my address'], answer: 'Ok.' },
      ],
      {
        synonyms: [['parcel', 'package']],
      },
    );
    expect((await plain.match('my package is lost')).score).toBeLessThan(
      (await withSynonyms.match('my package is lost')).score,
    );
    expect(await withSynonyms.match('my package is lost')).toMatchObject({ id: 'lost' });
    const lost = await withSynonyms.match('my package is lost');
    expect(lost.score).toBeGreaterThanOrEqual(lost.threshold);
  });

  it('when the bot speaks German, then inflections and stopwords do not stand in the way', async () => {
    const german = createFaqMatcher(
      [
        { id: 'versand', questions: ['Wie lange dauert der Versand?'], answer: 'Zwei Tage.' },
        { id: 'rueckgabe', questions: ['Kann ich einen Artikel zurückgeben?'], answer: 'Ja.' },
      ],
      { locale: 'de' },
    );
    expect(await german.match('Wie lange dauert denn der Versand eigentlich')).toMatchObject({ id: 'versand' });
    const shipping = await german.match('Wie lange dauert denn der Versand eigentlich');
    expect(shipping.score).toBeGreaterThanOrEqual(shipping.threshold);
    expect(await german.match('Kann ich Artikel zurückgeben')).toMatchObject({ id: 'rueckgabe' });
    const weather = await german.match('Wie wird das Wetter morgen');
    expect(weather.score).toBeLessThan(weather.threshold);
  });
});
