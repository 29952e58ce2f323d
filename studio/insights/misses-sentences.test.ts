import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n/catalogue.ts';
import { mostFrequentSentence } from './misses-sentences.ts';

describe('the sentence above capped misses', () => {
  afterEach(() => setLanguage('en'));

  it('when only one input is grouped, then the sentence speaks of one, in English and German', () => {
    expect(mostFrequentSentence('NLP log', 1, 2)).toBe(
      'The NLP log holds 2 different inputs in these days: only the most frequent is grouped here.',
    );
    setLanguage('de');
    expect(mostFrequentSentence('NLP-Protokoll', 1, 2)).toBe(
      'Das NLP-Protokoll enthält in diesen Tagen 2 verschiedene Eingaben: Hier ist nur die häufigste gruppiert.',
    );
  });

  it('when several inputs are grouped, then the sentence counts them, in English and German', () => {
    expect(mostFrequentSentence('FAQ log', 20, 31)).toBe(
      'The FAQ log holds 31 different inputs in these days: the 20 most frequent are grouped here.',
    );
    setLanguage('de');
    expect(mostFrequentSentence('FAQ-Protokoll', 20, 31)).toBe(
      'Das FAQ-Protokoll enthält in diesen Tagen 31 verschiedene Eingaben: Hier sind die 20 häufigsten gruppiert.',
    );
  });
});
