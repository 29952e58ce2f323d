import { describe, expect, it } from 'vitest';
import { createFaqMatcher } from './faq-matcher.ts';
import { analyserFor, languageOf } from './language.ts';

/** Per locale: two inflections of one word that must meet, a sentence with stopwords, and its stopword. */
const cases = [
  ['en', 'deliveries', 'delivery', 'where is the parcel', 'the'],
  ['de', 'Bestellungen', 'Bestellung', 'wo ist die Bestellung', 'die'],
  ['fr', 'commandes', 'commande', 'où est la commande', 'la'],
  ['es', 'pedidos', 'pedido', 'dónde está el pedido', 'el'],
  ['it', 'ordini', 'ordine', 'dove è il mio ordine', 'il'],
  ['pl', 'zamówienia', 'zamówieniem', 'gdzie jest moje zamówienie', 'jest'],
  ['pt', 'encomendas', 'encomenda', 'onde está a minha encomenda', 'minha'],
  ['nl', 'bestellingen', 'bestelling', 'waar is de bestelling', 'de'],
] as const;

describe('language analysers', () => {
  it.each(cases)(
    'when the locale is %s, then inflections share a stem and stopwords are known',
    (locale, a, b, sentence, stopword) => {
      const analyser = analyserFor(`${locale}-XX`);
      expect(analyser.language).toBe(locale);
      expect(analyser.stem(analyser.words(a)[0] as string)).toBe(analyser.stem(analyser.words(b)[0] as string));
      expect(analyser.words(sentence)).toContain(stopword);
      expect(analyser.isStopword(stopword)).toBe(true);
    },
  );

  it('when the locale has no analyser of its own, then it reads as English', () => {
    expect(languageOf('sv-SE')).toBe('en');
    expect(analyserFor('sv').isStopword('the')).toBe(true);
  });

  it('when a Polish FAQ is asked in another case of its words, then it answers', async () => {
    const matcher = createFaqMatcher(
      [
        { id: 'status', questions: ['Gdzie jest moje zamówienie?'], answer: 'W drodze.' },
        { id: 'anuluj', questions: ['Jak anulować zamówienie?'], answer: 'W ustawieniach.' },
      ],
      { locale: 'pl' },
    );
    expect(await matcher.match('gdzie są moje zamówienia')).toMatchObject({ id: 'status' });
    expect((await matcher.match('gdzie są moje zamówienia')).score).toBeGreaterThanOrEqual(0.6);
  });
});
