import snowball from 'snowball-stemmers';
import stopwords from 'stopword';
import { stemPolish } from './polish-stemmer.ts';

/**
 * Tokenisation, stopwords and stemming for the bot's locale. Both the intent
 * classifier and the FAQ matcher read text through this, so a German bot
 * folds "Lieferungen" and "Lieferung" to one feature and drops "die", "der".
 */
export interface Analyser {
  readonly language: SupportedLanguage;
  /** Lower-cased words of the text, in order (letters and digits; punctuation dropped). */
  words(text: string): string[];
  isStopword(word: string): boolean;
  /** A word's stem with diacritics folded ("über" and "uber" meet). */
  stem(word: string): string;
}

export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pl', 'pt', 'nl'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

const SNOWBALL: Record<Exclude<SupportedLanguage, 'pl'>, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  nl: 'dutch',
};
const STOPWORDS: Record<SupportedLanguage, string> = {
  en: 'eng',
  de: 'deu',
  fr: 'fra',
  es: 'spa',
  it: 'ita',
  pl: 'pol',
  pt: 'por',
  nl: 'nld',
};

/** The language part of a locale tag ("de-AT" → "de"); locales without their own analyser read as English. */
export function languageOf(locale: string): SupportedLanguage {
  const language = locale.toLowerCase().split('-')[0] ?? 'en';
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(language) ? (language as SupportedLanguage) : 'en';
}

const analysers = new Map<SupportedLanguage, Analyser>();

export function analyserFor(locale: string): Analyser {
  const language = languageOf(locale);
  let analyser = analysers.get(language);
  if (!analyser) {
    analyser = createAnalyser(language);
    analysers.set(language, analyser);
  }
  return analyser;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
/** Words longer than this are not words (pasted hashes, URLs): they are cut so a stemmer never sees them whole. */
const MAX_WORD = 40;

function createAnalyser(language: SupportedLanguage): Analyser {
  const stopSet = new Set((stopwords[STOPWORDS[language]] ?? []).map((w) => w.toLowerCase()));
  const snowballName = language === 'pl' ? undefined : SNOWBALL[language];
  const stemmer = snowballName ? snowball.newStemmer(snowballName) : undefined;
  const cache = new Map<string, string>();
  return {
    language,
    words(text) {
      return (text.normalize('NFC').toLowerCase().match(WORD) ?? []).map((w) =>
        (w.length > MAX_WORD ? w.slice(0, MAX_WORD) : w).replace(/’/g, "'"),
      );
    },
    isStopword(word) {
      return stopSet.has(word);
    },
    stem(word) {
      let stemmed = cache.get(word);
      if (stemmed === undefined) {
        const base = /^\p{N}+$/u.test(word) ? word : stemmer ? stemmer.stem(word) : stemPolish(word);
        stemmed = fold(base);
        if (cache.size < 50_000) cache.set(word, stemmed);
      }
      return stemmed;
    },
  };
}

/** Drops diacritics and apostrophes: users type "uber" for "über" and "dont" for "don't". */
export function fold(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\p{M}'’]/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l');
}
