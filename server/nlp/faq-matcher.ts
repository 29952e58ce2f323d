import type { FaqPair } from '../definition/schema.ts';
import type { EmbeddingProvider } from '../ports/embeddings.ts';
import type { FaqMatch, FaqMatcher } from '../ports/understanding.ts';
import { dot, fitVectoriser, type SparseVector } from './features.ts';
import { analyserFor } from './language.ts';
import { round } from './intent-model.ts';
import { dense } from './embeddings/vectors.ts';

/**
 * FAQ matching: every phrasing of every pair is a TF-IDF vector of its content-word
 * stems (stopwords dropped, so "how long does the shipping take" and "how long does
 * shipping take" are one question), their adjacent pairs, optional synonyms, and
 * character n-grams of the stems, which carry typos ("shiping") and compounds. With
 * an embedding provider each phrasing also has a sentence embedding, and the
 * similarity is a weighted mean of the two cosines: embeddings find "what is the fee
 * for a transfer" in "How much does sending money cost?", words keep the typos and
 * the names. A question scores against a pair by its closest phrasing.
 *
 * The similarity maps linearly onto 0..1 between a floor and a full mark, so that the
 * default threshold 0.6 answers few questions about something else entirely; an exact
 * repeat scores 1. Words alone and words with embeddings have their own constants,
 * chosen on the training splits of BANKING77 and HWU64 (bench/nlp/tune-faq.ts).
 */
export interface FaqScoreOptions {
  /** Share of the embedding cosine in the similarity (0 = words only). */
  readonly embeddingShare: number;
  readonly floor: number;
  readonly full: number;
}

export const WORD_FAQ_SCORE: FaqScoreOptions = { embeddingShare: 0, floor: 0.25, full: 0.75 };
export const EMBEDDED_FAQ_SCORE: FaqScoreOptions = { embeddingShare: 0.7, floor: 0.3, full: 0.8 };
const MAX_OTHERS = 5;

export interface FaqMatcherOptions {
  /** The bot's locale: which stemmer and stopwords read the questions. */
  readonly locale?: string;
  /** Groups of words that mean the same here, e.g. [["parcel", "package"]]. */
  readonly synonyms?: readonly (readonly string[])[];
  /** Sentence embeddings beside the words; words alone without. */
  readonly embeddings?: EmbeddingProvider;
  /** Told when a question could not be embedded: it is then matched on words alone. */
  readonly warn?: (message: string) => void;
  /** For tuning (bench/nlp/tune-faq.ts): other constants than the defaults. */
  readonly wordScore?: FaqScoreOptions;
  readonly embeddedScore?: FaqScoreOptions;
}

/** A matcher on words alone, built at once. */
export function createFaqMatcher(pairs: readonly FaqPair[], options: Omit<FaqMatcherOptions, 'embeddings'> = {}): FaqMatcher {
  return build(pairs, options, undefined);
}

/** A matcher on words and, with a provider, sentence embeddings of every phrasing (through the provider's cache). */
export async function prepareFaqMatcher(pairs: readonly FaqPair[], options: FaqMatcherOptions = {}): Promise<FaqMatcher> {
  const phrasings = pairs.flatMap((pair) => pair.questions);
  const vectors = options.embeddings && phrasings.length > 0 ? await options.embeddings.embed(phrasings, 'batch') : undefined;
  return build(pairs, options, vectors);
}

function build(pairs: readonly FaqPair[], options: FaqMatcherOptions, embedded: readonly Float32Array[] | undefined): FaqMatcher {
  const analyser = analyserFor(options.locale ?? 'en');
  const wordScore = options.wordScore ?? WORD_FAQ_SCORE;
  const embeddedScore = options.embeddedScore ?? EMBEDDED_FAQ_SCORE;
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
  const vectors: { id: string; vector: SparseVector; embedding: Float32Array | undefined }[] = phrasings.map((p, i) => ({
    id: p.id,
    vector: vectoriser.vector(p.question),
    embedding: embedded?.[i],
  }));
  const provider = embedded ? options.embeddings : undefined;

  const rank = (text: string, embedding: Float32Array | null): FaqMatch => {
    const query = vectoriser.vector(text);
    const score = embedding ? embeddedScore : wordScore;
    const best = new Map<string, number>();
    if (query.indices.length > 0 || embedding) {
      for (const { id, vector, embedding: phrasing } of vectors) {
        const words = query.indices.length > 0 ? dot(query, vector) : 0;
        const similarity = embedding && phrasing ? (1 - score.embeddingShare) * words + score.embeddingShare * dense(embedding, phrasing) : words;
        if (similarity > (best.get(id) ?? -Infinity)) best.set(id, similarity);
      }
    }
    const ranked = [...best.entries()]
      .map(([id, similarity]) => ({ id, score: toScore(similarity, score) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score);
    const [top, ...others] = ranked;
    return top ? { id: top.id, score: top.score, others: others.slice(0, MAX_OTHERS) } : { id: null, score: 0, others: [] };
  };

  return {
    async match(text): Promise<FaqMatch> {
      let embedding: Float32Array | null = null;
      if (provider) {
        try {
          [embedding = null] = await provider.embed([text], 'query');
        } catch (error) {
          options.warn?.(`a question could not be embedded; it was matched on words alone: ${(error as Error).message}`);
        }
      }
      return rank(text, embedding);
    },
  };
}

function toScore(similarity: number, score: FaqScoreOptions): number {
  // Float sums of an exact repeat land a hair under 1.
  if (similarity >= 0.9999) return 1;
  return round(Math.min(1, Math.max(0, (similarity - score.floor) / (score.full - score.floor))));
}
