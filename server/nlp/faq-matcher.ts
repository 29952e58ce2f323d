import type { FaqPair } from '../definition/schema.ts';
import type { EmbeddingProvider } from '../ports/embeddings.ts';
import type { FaqMatch, FaqMatcher } from '../ports/understanding.ts';
import { dot, fitVectoriser, type SparseVector } from './features.ts';
import { analyserFor, type Analyser } from './language.ts';
import { round } from './intent-model.ts';
import { dense } from './embeddings/vectors.ts';
import { backgroundFor } from './background-corpus.ts';
import type { Calibration, CalibrationTargets } from './calibration.ts';
import { calibrateFaq } from './faq-calibration.ts';

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
 * Words alone: the similarity maps linearly onto 0..1 between a floor and a full mark.
 * With embeddings the score is a logistic function of two features, because a raw
 * cosine means different things in different bots (a narrow banking FAQ puts every
 * question close to some entry; a home assistant's short commands sit far apart):
 * - the similarity to the best pair, less a share of how close that pair's stored
 *   question that matched is to another pair's ("crowding"): in a crowded region of the FAQ
 *   a high similarity is expected of any question, so it says less;
 * - the margin over the second-best pair (capped): a question between two pairs is
 *   less sure, and an answer from the wrong one of two neighbours is a false answer too.
 * The bias puts 0.6 (the fixed threshold before calibration at load, faq-calibration.ts) where
 * questions about something else get an answer no more than 8 % of the time on the training splits of BANKING77 and HWU64
 * (bench/nlp/tune-faq.ts has the fit; docs/understanding.md the figures). An exact
 * repeat scores 1 in both; a similarity at or below the floor scores 0 in both (the studio's
 * Misses then suggest no pair).
 */
export type FaqScoreOptions =
  | {
      readonly kind: 'linear';
      /** Share of the embedding cosine in the similarity (0 = words only). */
      readonly embeddingShare: number;
      readonly floor: number;
      readonly full: number;
    }
  | {
      readonly kind: 'logistic';
      readonly embeddingShare: number;
      /** A similarity at or below this is no evidence at all: score 0 (no pair is close), whatever the margin. */
      readonly floor: number;
      /** How much of the matched phrasing's crowding (its cosine to the nearest stored question of another pair) is taken off the similarity. */
      readonly crowding: number;
      /** The margin over the second pair counts up to this much. */
      readonly marginCap: number;
      /** Weights of (similarity − crowding share), margin; the bias already holds the threshold. */
      readonly weights: readonly [number, number];
      readonly bias: number;
    };

export const WORD_FAQ_SCORE: FaqScoreOptions = { kind: 'linear', embeddingShare: 0, floor: 0.25, full: 0.75 };
export const EMBEDDED_FAQ_SCORE: FaqScoreOptions = {
  kind: 'logistic',
  embeddingShare: 0.85,
  floor: 0.3,
  crowding: 0.5,
  marginCap: 0.3,
  weights: [4.467, 4.37],
  bias: -1.974,
};
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
  /** For tuning (bench/nlp/tune-calibration.ts): other calibration targets than the defaults. */
  readonly targets?: CalibrationTargets;
}

/** The matcher, with the calibration it found for the bot at load (faq-calibration.ts). */
export interface CalibratedFaqMatcher extends FaqMatcher {
  /** With embeddings: the embedded scale's; `words` is the one a question that could not be embedded is judged by. */
  readonly calibration: { readonly words: Calibration; readonly embedded?: Calibration };
}

/** A matcher on words alone, built at once. */
export function createFaqMatcher(
  pairs: readonly FaqPair[],
  options: Omit<FaqMatcherOptions, 'embeddings'> = {},
): CalibratedFaqMatcher {
  return build(pairs, options, undefined, undefined);
}

/** A matcher on words and, with a provider, sentence embeddings of every phrasing (through the provider's cache). */
export async function prepareFaqMatcher(
  pairs: readonly FaqPair[],
  options: FaqMatcherOptions = {},
): Promise<CalibratedFaqMatcher> {
  const phrasings = pairs.flatMap((pair) => pair.questions);
  const vectors =
    options.embeddings && phrasings.length > 0 ? await options.embeddings.embed(phrasings, 'batch') : undefined;
  const background = backgroundFor(options.locale ?? 'en');
  const backgroundVectors =
    vectors && background.length > 0 ? await options.embeddings?.embed(background, 'batch') : undefined;
  return build(pairs, options, vectors, backgroundVectors);
}

function build(
  pairs: readonly FaqPair[],
  options: FaqMatcherOptions,
  embedded: readonly Float32Array[] | undefined,
  backgroundEmbedded: readonly Float32Array[] | undefined,
): CalibratedFaqMatcher {
  const analyser = analyserFor(options.locale ?? 'en');
  const wordScore = options.wordScore ?? WORD_FAQ_SCORE;
  const embeddedScore = options.embeddedScore ?? EMBEDDED_FAQ_SCORE;
  const synonyms = synonymStems(options.synonyms ?? [], analyser);
  const phrasings = pairs.flatMap((pair) => pair.questions.map((question) => ({ id: pair.id, question })));
  const vectoriser = fitVectoriser(
    phrasings.map((p) => p.question),
    analyser,
    { synonyms },
  );
  const vectors: StoredPhrasing[] = phrasings.map((p, i) => ({
    id: p.id,
    vector: vectoriser.vector(p.question),
    embedding: embedded?.[i],
  }));
  const provider = embedded ? options.embeddings : undefined;
  const crowding = embedded ? crowdingOf(vectors) : [];

  const scores = { word: wordScore, embedded: embeddedScore };
  const rank = (query: SparseVector, embedding: Float32Array | null, skip?: (index: number, id: string) => boolean) =>
    rankPairs({ vectors, crowding, scores }, query, embedding, skip);

  const background = backgroundFor(options.locale ?? 'en');
  const backgroundVectors = background.map((text) => vectoriser.vector(text));
  const calibrationOf = (withEmbeddings: boolean) =>
    calibrateFaq(
      {
        entries: vectors.map((v) => v.id),
        backgroundCount: background.length,
        probe: {
          stored: (index, without) => {
            const own = vectors[index] as (typeof vectors)[number];
            const embedding = withEmbeddings ? (own.embedding ?? null) : null;
            return rank(own.vector, embedding, without === 'entry' ? (_, id) => id === own.id : (i) => i === index);
          },
          background: (index) =>
            rank(
              backgroundVectors[index] as SparseVector,
              withEmbeddings ? (backgroundEmbedded?.[index] ?? null) : null,
            ),
        },
      },
      options.targets,
    );
  const words = calibrationOf(false);
  const calibration = embedded && backgroundEmbedded ? { words, embedded: calibrationOf(true) } : { words };

  return {
    calibration,
    async match(text): Promise<FaqMatch> {
      let embedding: Float32Array | null = null;
      if (provider) {
        try {
          [embedding = null] = await provider.embed([text], 'query');
        } catch (error) {
          options.warn?.(
            `a question could not be embedded; it was matched on words alone: ${(error as Error).message}`,
          );
        }
      }
      const ranked = rank(vectoriser.vector(text), embedding);
      return {
        ...ranked,
        threshold: (embedding ? calibration.embedded : undefined)?.threshold ?? calibration.words.threshold,
      };
    },
  };
}

/** A stored question of the FAQ: its pair, its words and, with a provider, its sentence embedding. */
interface StoredPhrasing {
  readonly id: string;
  readonly vector: SparseVector;
  readonly embedding: Float32Array | undefined;
}

/** Stems that stand for each other: every stem of a group, to the group's other stems. */
function synonymStems(groups: readonly (readonly string[])[], analyser: Analyser): Map<string, string[]> {
  const synonyms = new Map<string, string[]>();
  for (const group of groups) {
    const stems = [...new Set(group.flatMap((w) => analyser.words(w)).map((w) => analyser.stem(w)))];
    for (const stem of stems)
      synonyms.set(stem, [...new Set([...(synonyms.get(stem) ?? []), ...stems.filter((s) => s !== stem)])]);
  }
  return synonyms;
}

/** Ranked pairs for a question; `skip` leaves stored phrasings out (calibration asks the FAQ as if an entry or a question were absent). */
function rankPairs(
  stored: {
    readonly vectors: readonly StoredPhrasing[];
    readonly crowding: readonly number[];
    readonly scores: { readonly word: FaqScoreOptions; readonly embedded: FaqScoreOptions };
  },
  query: SparseVector,
  embedding: Float32Array | null,
  skip?: (index: number, id: string) => boolean,
): Omit<FaqMatch, 'threshold'> {
  const score = embedding ? stored.scores.embedded : stored.scores.word;
  /** Each pair's closest phrasing: its similarity and that phrasing's crowding. */
  const best = new Map<string, { similarity: number; crowding: number }>();
  if (query.indices.length > 0 || embedding) {
    stored.vectors.forEach(({ id, vector, embedding: phrasing }, i) => {
      if (skip?.(i, id)) return;
      const words = query.indices.length > 0 ? dot(query, vector) : 0;
      const similarity =
        embedding && phrasing
          ? (1 - score.embeddingShare) * words + score.embeddingShare * dense(embedding, phrasing)
          : words;
      if (similarity > (best.get(id)?.similarity ?? -Infinity))
        best.set(id, { similarity, crowding: stored.crowding[i] ?? 0 });
    });
  }
  const sorted = [...best.entries()].sort((a, b) => b[1].similarity - a[1].similarity);
  const [first, second] = [sorted[0]?.[1].similarity ?? 0, sorted[1]?.[1].similarity ?? 0];
  const ranked = sorted
    // The best pair's margin is over the second; every other pair's is (negative) under the best.
    .map(([id, { similarity, crowding: crowded }], i) => ({
      id,
      score: toScore(similarity, similarity - (i === 0 ? second : first), crowded, score),
    }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score);
  const [top, ...others] = ranked;
  return top
    ? { id: top.id, score: top.score, others: others.slice(0, MAX_OTHERS) }
    : { id: null, score: 0, others: [] };
}

/**
 * Each phrasing's crowding: its highest embedding cosine to a stored question of another pair (0
 * in a lone pair). Every phrasing against every other once, at start; past MAX_CROWDING_PAIRS
 * comparisons (about 2,000 phrasings) each is compared with an evenly spaced sample of the others
 * instead, so a very large FAQ still starts in seconds (its crowding then reads a little low).
 */
const MAX_CROWDING_PAIRS = 2_000_000;

function crowdingOf(vectors: readonly { id: string; embedding: Float32Array | undefined }[]): number[] {
  const out = vectors.map(() => 0);
  const n = vectors.length;
  const all = (n * (n - 1)) / 2 <= MAX_CROWDING_PAIRS;
  const stride = all ? 1 : Math.ceil((n * n) / MAX_CROWDING_PAIRS);
  for (let i = 0; i < n; i++) {
    const a = vectors[i] as (typeof vectors)[number];
    if (!a.embedding) continue;
    // All pairs once each (both ends updated), or every stride-th other phrasing from an offset that moves with i.
    for (let j = all ? i + 1 : i % stride; j < n; j += stride) {
      const b = vectors[j] as (typeof vectors)[number];
      if (j === i || !b.embedding || b.id === a.id) continue;
      const cosine = dense(a.embedding, b.embedding);
      if (cosine > (out[i] as number)) out[i] = cosine;
      if (cosine > (out[j] as number)) out[j] = cosine;
    }
  }
  return out;
}

function toScore(similarity: number, margin: number, crowding: number, score: FaqScoreOptions): number {
  // Float sums of an exact repeat land a hair under 1.
  if (similarity >= 0.9999) return 1;
  if (score.kind === 'linear')
    return round(Math.min(1, Math.max(0, (similarity - score.floor) / (score.full - score.floor))));
  // In a bot of two or three pairs any text has a large margin; with no similarity to speak of it is still no match.
  if (similarity <= score.floor) return 0;
  const z =
    score.bias +
    score.weights[0] * (similarity - score.crowding * crowding) +
    score.weights[1] * Math.min(score.marginCap, margin);
  return round(1 / (1 + Math.exp(-z)));
}
