import type { FaqPair } from '../definition/schema.ts';
import type { FaqMatch, FaqMatcher } from '../ports/understanding.ts';
import { dot, fitVectoriser, type SparseVector } from './features.ts';
import { analyserFor } from './language.ts';
import { round } from './intent-model.ts';

/**
 * FAQ matching on words, not characters: every phrasing of every pair is a
 * TF-IDF vector of its content-word stems (stopwords dropped, so "how long
 * does the shipping take" and "how long does shipping take" are one question),
 * their adjacent pairs, optional synonyms, and character n-grams of the stems,
 * which carry typos ("shiping") and compounds. A question scores against a pair
 * by its closest phrasing.
 *
 * The score maps cosine similarity onto 0..1 so that the default threshold 0.6
 * sits where about one in ten questions about something else entirely still
 * clears it (cosine 0.5, measured on BANKING77, bench/nlp-banking77.ts); an
 * exact repeat scores 1.
 */
const COSINE_FLOOR = 0.2;
const COSINE_FULL = 0.7;
const MAX_OTHERS = 5;

export interface FaqMatcherOptions {
  /** The bot's locale: which stemmer and stopwords read the questions. */
  readonly locale?: string;
  /** Groups of words that mean the same here, e.g. [["parcel", "package"]]. */
  readonly synonyms?: readonly (readonly string[])[];
}

export function createFaqMatcher(pairs: readonly FaqPair[], options: FaqMatcherOptions = {}): FaqMatcher {
  const analyser = analyserFor(options.locale ?? 'en');
  const synonyms = new Map<string, string[]>();
  for (const group of options.synonyms ?? []) {
    const stems = [...new Set(group.flatMap((w) => analyser.words(w)).map((w) => analyser.stem(w)))];
    for (const stem of stems) synonyms.set(stem, [...new Set([...(synonyms.get(stem) ?? []), ...stems.filter((s) => s !== stem)])]);
  }
  const phrasings = pairs.flatMap((pair) => pair.questions.map((question) => ({ id: pair.id, question })));
  const vectoriser = fitVectoriser(
    phrasings.map((p) => p.question),
    analyser,
    { synonyms },
  );
  const vectors: { id: string; vector: SparseVector }[] = phrasings.map((p) => ({ id: p.id, vector: vectoriser.vector(p.question) }));
  return {
    match(text): FaqMatch {
      const query = vectoriser.vector(text);
      const best = new Map<string, number>();
      if (query.indices.length > 0) {
        for (const { id, vector } of vectors) {
          const cosine = dot(query, vector);
          if (cosine > (best.get(id) ?? 0)) best.set(id, cosine);
        }
      }
      const ranked = [...best.entries()]
        .map(([id, cosine]) => ({ id, score: toScore(cosine) }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score);
      const [top, ...others] = ranked;
      return top ? { id: top.id, score: top.score, others: others.slice(0, MAX_OTHERS) } : { id: null, score: 0, others: [] };
    },
  };
}

function toScore(cosine: number): number {
  // Float sums of an exact repeat land a hair under 1.
  if (cosine >= 0.9999) return 1;
  return round(Math.min(1, Math.max(0, (cosine - COSINE_FLOOR) / (COSINE_FULL - COSINE_FLOOR))));
}
