import { trainDenseSoftmax } from './dense-model.ts';
import { dense } from './embeddings/vectors.ts';

/**
 * The intent model's second feature set: a logistic regression over sentence
 * embeddings, and each intent's examples in embedding space for the evidence
 * part of the score (how close a text comes to the intent's nearest example,
 * next to how close its examples come to each other).
 */
export interface EmbeddingHead {
  logits(vector: Float32Array): Float64Array;
  /** Cosine to the nearest example of class `c`. */
  nearest(vector: Float32Array, c: number): number;
  /** The median of each example's cosine to its nearest sibling, per class (bounded). */
  readonly typical: Float64Array;
}

export interface EmbeddingHeadOptions {
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
}

export const EMBEDDING_HEAD: EmbeddingHeadOptions = { epochs: 8, learningRate: 1, l2: 1e-5 };

const TYPICAL_MIN = 0.4;
const TYPICAL_MAX = 0.95;
const TYPICAL_SAMPLE = 200;

export function trainEmbeddingHead(
  vectors: readonly Float32Array[],
  ys: readonly number[],
  classes: number,
  options: EmbeddingHeadOptions = EMBEDDING_HEAD,
): EmbeddingHead {
  const dimensions = vectors[0]?.length ?? 0;
  const model = trainDenseSoftmax(vectors, ys, classes, dimensions, options);
  const byClass: Float32Array[][] = Array.from({ length: classes }, () => []);
  vectors.forEach((v, i) => byClass[ys[i] as number]?.push(v));
  const typical = Float64Array.from(byClass, (group) => typicalNearest(group));
  return {
    logits: (vector) => model.logits(vector),
    nearest(vector, c) {
      let best = -1;
      for (const example of byClass[c] ?? []) best = Math.max(best, dense(vector, example));
      return best;
    },
    typical,
  };
}

function typicalNearest(all: readonly Float32Array[]): number {
  // Quadratic in the examples: an evenly spread sample tells the median as well as all of them.
  const group =
    all.length > TYPICAL_SAMPLE ? all.filter((_, i) => i % Math.ceil(all.length / TYPICAL_SAMPLE) === 0) : all;
  if (group.length < 2) return TYPICAL_MIN;
  const nearest = group.map((a, i) => {
    let best = -1;
    group.forEach((b, j) => {
      if (i !== j) best = Math.max(best, dense(a, b));
    });
    return best;
  });
  nearest.sort((a, b) => a - b);
  return Math.min(TYPICAL_MAX, Math.max(TYPICAL_MIN, nearest[Math.floor(nearest.length / 2)] as number));
}
