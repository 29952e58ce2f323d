import type { Analyser } from './language.ts';
import { fitVectoriser, dot, type SparseVector, type TermsMemo, type Vectoriser } from './features.ts';
import { softmaxInPlace, trainSoftmax, type LinearModel } from './linear-model.ts';
import { trainEmbeddingHead, type EmbeddingHead, type EmbeddingHeadOptions } from './embedding-head.ts';
import { indexExamples, type NearestExamples } from './nearest-examples.ts';
import type { ScoreOptions } from './intent-score.ts';

/**
 * The score (server/nlp/intent-score.ts) reads the label's probability, its margin over the next
 * label and the evidence: the text's similarity to the intent's nearest example over how close
 * that intent's examples typically are to each other. An intent with 130 examples has near
 * neighbours for almost anything, one with 10 does not, and a fixed cut-off would mean different
 * things for each. With embeddings, the similarity is the cosine of the sentence embeddings;
 * without, of the content words' TF-IDF vectors. docs/understanding.md has the figures.
 */
/** Bounds on an intent's typical similarity: two or three examples say little about it. */
const TYPICAL_MIN = 0.3;
const TYPICAL_MAX = 0.9;
const TYPICAL_SAMPLE = 200;
const MAX_RANKED = 5;

/** How the word-level model is built: chosen by cross-validation on two public sets (bench/nlp/tune-word-model.ts). */
export interface WordModelOptions {
  readonly wordWeight: number;
  readonly charRange: readonly [number, number];
  readonly charSource: 'stems' | 'words';
  readonly pairs: boolean;
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
}

export const WORD_MODEL: WordModelOptions = {
  wordWeight: 0.4,
  charRange: [3, 5],
  charSource: 'stems',
  pairs: true,
  epochs: 10,
  learningRate: 2,
  l2: 1e-5,
};

export interface IntentModelOptions {
  readonly word?: WordModelOptions;
  readonly head?: EmbeddingHeadOptions;
  /** Weight of the embedding head's log-probabilities next to the word model's. */
  readonly embeddingWeight?: number;
  readonly wordScore?: ScoreOptions;
  readonly embeddedScore?: ScoreOptions;
  /** One embedding per example, in order: the second feature set. */
  readonly embeddings?: readonly Float32Array[];
  /** Terms read before, for models trained on the same texts and dropped together (features.ts). */
  readonly memo?: { readonly features: TermsMemo; readonly content: TermsMemo };
}

export const EMBEDDING_WEIGHT = 1;

/** The intent model's trained parts: what predicting and explaining read. */
export interface FittedIntents {
  readonly labels: readonly string[];
  readonly vectoriser: Vectoriser;
  readonly model: LinearModel;
  readonly head: EmbeddingHead | undefined;
  /** Content words only: the evidence's features. */
  readonly contentVectoriser: Vectoriser;
  /** Per label: its examples' typical similarity to their nearest sibling, and how many examples it has. */
  readonly typical: readonly number[];
  readonly counts: readonly number[];
  readonly examplesByLabel: NearestExamples;
  readonly embeddingWeight: number;
}

/** Trains the word model (and the embedding head when every example has an embedding) over `labels`. */
export function fitIntents(
  texts: readonly string[],
  ys: readonly number[],
  labels: readonly string[],
  analyser: Analyser,
  options: IntentModelOptions,
  usesEmbeddings: boolean,
): FittedIntents {
  const word = options.word ?? WORD_MODEL;
  const vectoriser = fitVectoriser(
    texts,
    analyser,
    // More weight on character n-grams than the FAQ gives them: with ten examples an intent's
    // word forms are sparse, and shared word parts generalise.
    {
      keepStopwords: true,
      wordWeight: word.wordWeight,
      charRange: word.charRange,
      charSource: word.charSource,
      pairs: word.pairs,
      ...(options.memo ? { memo: options.memo.features } : {}),
    },
  );
  const xs = texts.map((text) => vectoriser.vector(text));
  const model = trainSoftmax(xs, [...ys], labels.length, vectoriser.size, {
    epochs: word.epochs,
    learningRate: word.learningRate,
    l2: word.l2,
  });
  const head = usesEmbeddings
    ? trainEmbeddingHead(options.embeddings as Float32Array[], [...ys], labels.length, options.head)
    : undefined;
  // Evidence counts content words only: "how is my driving" shares "how is my" with half of any
  // bot's examples, and that is no evidence of anything.
  const contentVectoriser = fitVectoriser(texts, analyser, options.memo ? { memo: options.memo.content } : {});
  const contents = texts.map((text) => contentVectoriser.vector(text));
  const byLabel = labels.map((_, c) => contents.filter((_, i) => ys[i] === c));
  return {
    labels,
    vectoriser,
    model,
    head,
    contentVectoriser,
    typical: byLabel.map((group) => typicalNearest(group)),
    counts: byLabel.map((group) => group.length),
    examplesByLabel: indexExamples(byLabel, contentVectoriser.size),
    embeddingWeight: options.embeddingWeight ?? EMBEDDING_WEIGHT,
  };
}

/** Probabilities over the labels: the word model's, fused with the embedding head's when there is an embedding. */
export function probabilities(fitted: FittedIntents, x: SparseVector, embedding: Float32Array | null): Float64Array {
  const z = fitted.model.logits(x);
  if (fitted.head && embedding) {
    // A product of experts: the two models' log-probabilities, weighted, then normalised again.
    softmaxInPlace(z);
    const e = fitted.head.logits(embedding);
    softmaxInPlace(e);
    for (let c = 0; c < z.length; c++)
      z[c] = Math.log((z[c] as number) + 1e-12) + fitted.embeddingWeight * Math.log((e[c] as number) + 1e-12);
  }
  softmaxInPlace(z);
  return z;
}

/** The text's features, and its embedding when the model uses one; null when there is nothing to predict from. */
export function inputs(
  fitted: FittedIntents,
  text: string,
  embedding: Float32Array | null | undefined,
): { x: SparseVector; v: Float32Array | null } | null {
  const x = fitted.vectoriser.vector(text);
  const v = fitted.head && embedding ? embedding : null;
  // A text with no known word part still has a meaning when it has an embedding.
  return x.indices.length === 0 && !v ? null : { x, v };
}

/** The label indices, most probable first (at most MAX_RANKED). */
export function mostProbable(fitted: FittedIntents, p: Float64Array): number[] {
  return fitted.labels
    .map((_, c) => c)
    .sort((i, j) => (p[j] as number) - (p[i] as number))
    .slice(0, MAX_RANKED);
}

/** The median, over an intent's examples, of each one's similarity to its nearest sibling (bounded). */
function typicalNearest(all: readonly SparseVector[]): number {
  // Quadratic in the examples: an evenly spread sample of 200 tells the median as well as 2,000.
  const group =
    all.length > TYPICAL_SAMPLE ? all.filter((_, i) => i % Math.ceil(all.length / TYPICAL_SAMPLE) === 0) : all;
  if (group.length < 2) return TYPICAL_MIN;
  const nearest = group.map((a, i) => {
    let best = 0;
    group.forEach((b, j) => {
      if (i !== j) best = Math.max(best, dot(a, b));
    });
    return best;
  });
  nearest.sort((a, b) => a - b);
  return Math.min(TYPICAL_MAX, Math.max(TYPICAL_MIN, nearest[Math.floor(nearest.length / 2)] as number));
}
