import { type Analyser } from './language.ts';
import { dot, fitVectoriser, type SparseVector, type TermsMemo } from './features.ts';
import { softmaxInPlace, trainSoftmax } from './linear-model.ts';
import { trainEmbeddingHead, type EmbeddingHeadOptions } from './embedding-head.ts';
import { indexExamples } from './nearest-examples.ts';
import { EMBEDDED_SCORE, WORD_SCORE, intentScore, type ScoreOptions } from './intent-score.ts';

/**
 * The intent model: TF-IDF features (word stems, pairs and character n-grams)
 * and a multinomial logistic regression over the intents, trained in process.
 *
 * The score of the best intent combines its probability with an evidence
 * factor: how close the text comes to that intent's nearest example, next to
 * how close its examples come to each other. The probability only says which
 * intent wins; a text far from every example (out of scope) still has a
 * winner, and with few intents its share would be near 1. The evidence factor does not depend on how many intents a bot has, so a
 * bot with two intents rejects "how is my driving" as firmly as one with 150.
 */
export interface LabelledText {
  readonly text: string;
  readonly label: string;
}

export interface IntentPrediction {
  /**
   * The most probable label, even when its score is 0 (the threshold decides whether it is
   * used); null only when there is nothing to predict from (no intents, or no known word part
   * and no embedding).
   */
  readonly label: string | null;
  /** 0..1: the score of the best label (server/nlp/intent-score.ts). */
  readonly score: number;
  /** Labels most probable first, each with the same kind of score (at most `MAX_RANKED`). */
  readonly ranked: readonly { readonly label: string; readonly score: number }[];
  /** Whether sentence embeddings took part (false: words alone). */
  readonly embedded: boolean;
}

export interface IntentModel {
  /** Trained with embeddings: `predict` then wants the text's embedding, and falls back to words without one. */
  readonly usesEmbeddings: boolean;
  predict(text: string, embedding?: Float32Array | null): IntentPrediction;
}

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

/** What the score is made of, for tuning the constants on a data set's training split. */
export interface IntentEvidence {
  readonly label: string;
  /** Probabilities of the best and second best label (fused when embeddings took part). */
  readonly p1: number;
  readonly p2: number;
  /** Content-word cosine to the best label's nearest example, and that label's typical value. */
  readonly nearest: number;
  readonly typical: number;
  /** The same in embedding space (absent without embeddings). */
  readonly nearestEmbedded?: number;
  readonly typicalEmbedded?: number;
  /** The word model's own probability of the best label, and whether its own best label is the same. */
  readonly pWord?: number;
  readonly wordAgrees?: boolean;
  /** The embedding head's own probability of the best label, and whether its own best label is the same. */
  readonly pHead?: number;
  readonly headAgrees?: boolean;
  /** The five most probable labels' probabilities, content-word evidence (nearest / typical) and, with embeddings, embedded evidence. */
  readonly pTop?: readonly number[];
  readonly evidenceTop?: readonly number[];
  readonly evidenceEmbeddedTop?: readonly number[];
  /** Entropy of the whole distribution (nats). */
  readonly entropy?: number;
}

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

export function trainIntentModel(
  examples: readonly LabelledText[],
  analyser: Analyser,
  options: IntentModelOptions = {},
): IntentModel {
  return trainIntentModelExplained(examples, analyser, options);
}

export function trainIntentModelExplained(
  examples: readonly LabelledText[],
  analyser: Analyser,
  options: IntentModelOptions = {},
): IntentModel & { explain(text: string, embedding?: Float32Array | null): IntentEvidence | null } {
  const word = options.word ?? WORD_MODEL;
  const wordScore = options.wordScore ?? WORD_SCORE;
  const embeddedScore = options.embeddedScore ?? EMBEDDED_SCORE;
  const embeddingWeight = options.embeddingWeight ?? EMBEDDING_WEIGHT;
  const labels = [...new Set(examples.map((e) => e.label))];
  const usesEmbeddings =
    options.embeddings !== undefined && options.embeddings.length === examples.length && examples.length > 0;
  if (labels.length === 0)
    return {
      usesEmbeddings: false,
      predict: () => ({ label: null, score: 0, ranked: [], embedded: false }),
      explain: () => null,
    };
  const vectoriser = fitVectoriser(
    examples.map((e) => e.text),
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
  const xs = examples.map((e) => vectoriser.vector(e.text));
  const ys = examples.map((e) => labels.indexOf(e.label));
  const model = trainSoftmax(xs, ys, labels.length, vectoriser.size, {
    epochs: word.epochs,
    learningRate: word.learningRate,
    l2: word.l2,
  });
  const head = usesEmbeddings
    ? trainEmbeddingHead(options.embeddings as Float32Array[], ys, labels.length, options.head)
    : undefined;
  // Evidence counts content words only: "how is my driving" shares "how is my" with half of any
  // bot's examples, and that is no evidence of anything.
  const contentVectoriser = fitVectoriser(
    examples.map((e) => e.text),
    analyser,
    options.memo ? { memo: options.memo.content } : {},
  );
  const contents = examples.map((e) => contentVectoriser.vector(e.text));
  const byLabel = labels.map((_, c) => contents.filter((_, i) => ys[i] === c));

  const typical = byLabel.map((group) => typicalNearest(group));
  const counts = byLabel.map((group) => group.length);
  const examplesByLabel = indexExamples(byLabel, contentVectoriser.size);

  /** Probabilities over the labels: the word model's, fused with the embedding head's when there is an embedding. */
  const probabilities = (x: SparseVector, embedding: Float32Array | null): Float64Array => {
    const z = model.logits(x);
    if (head && embedding) {
      // A product of experts: the two models' log-probabilities, weighted, then normalised again.
      softmaxInPlace(z);
      const e = head.logits(embedding);
      softmaxInPlace(e);
      for (let c = 0; c < z.length; c++)
        z[c] = Math.log((z[c] as number) + 1e-12) + embeddingWeight * Math.log((e[c] as number) + 1e-12);
    }
    softmaxInPlace(z);
    return z;
  };
  const inputs = (
    text: string,
    embedding: Float32Array | null | undefined,
  ): { x: SparseVector; v: Float32Array | null } | null => {
    const x = vectoriser.vector(text);
    const v = head && embedding ? embedding : null;
    // A text with no known word part still has a meaning when it has an embedding.
    return x.indices.length === 0 && !v ? null : { x, v };
  };

  return {
    usesEmbeddings,
    explain(text, embedding) {
      const input = inputs(text, embedding);
      if (!input) return null;
      const p = probabilities(input.x, input.v);
      let a = 0;
      let b = -1;
      for (let c = 1; c < p.length; c++) {
        if ((p[c] as number) > (p[a] as number)) {
          b = a;
          a = c;
        } else if (b < 0 || (p[c] as number) > (p[b] as number)) b = c;
      }
      const content = contentVectoriser.vector(text);
      const w = model.logits(input.x);
      softmaxInPlace(w);
      const argmax = (v: Float64Array): number =>
        v.reduce((best, value, c) => (value > (v[best] as number) ? c : best), 0);
      let extra = {};
      if (head && input.v) {
        const e = head.logits(input.v);
        softmaxInPlace(e);
        extra = { pHead: e[a] as number, headAgrees: argmax(e) === a };
      }
      const order = labels
        .map((_, c) => c)
        .sort((i, j) => (p[j] as number) - (p[i] as number))
        .slice(0, MAX_RANKED);
      const nearestTop = examplesByLabel.nearest(content, order);
      let entropy = 0;
      for (const q of p) if (q > 0) entropy -= q * Math.log(q);
      return {
        pTop: order.map((c) => p[c] as number),
        evidenceTop: order.map((c, i) => (nearestTop[i] as number) / (typical[c] as number)),
        ...(head && input.v
          ? {
              evidenceEmbeddedTop: order.map(
                (c) => head.nearest(input.v as Float32Array, c) / (head.typical[c] as number),
              ),
            }
          : {}),
        entropy,
        pWord: w[a] as number,
        wordAgrees: argmax(w) === a,
        ...extra,
        label: labels[a] as string,
        p1: p[a] as number,
        p2: b < 0 ? 0 : (p[b] as number),
        nearest: examplesByLabel.nearest(content, [a])[0] as number,
        typical: typical[a] as number,
        ...(head && input.v
          ? { nearestEmbedded: head.nearest(input.v, a), typicalEmbedded: head.typical[a] as number }
          : {}),
      };
    },
    predict(text, embedding) {
      const input = inputs(text, embedding);
      if (!input) return { label: null, score: 0, ranked: [], embedded: false };
      const p = probabilities(input.x, input.v);
      const content = input.v ? undefined : contentVectoriser.vector(text);
      const calibration = input.v ? embeddedScore : wordScore;
      const order = labels
        .map((_, c) => c)
        .sort((a, b) => (p[b] as number) - (p[a] as number))
        .slice(0, MAX_RANKED);
      const nearestWords = content ? examplesByLabel.nearest(content, order) : [];
      const evidence = (c: number, i: number): number =>
        head && input.v
          ? head.nearest(input.v, c) / (head.typical[c] as number)
          : (nearestWords[i] as number) / (typical[c] as number);
      const best = p[order[0] as number] as number;
      const second = order.length > 1 ? (p[order[1] as number] as number) : 0;
      // Ranked by probability: the best label is the model's best guess even when its score is 0
      // (re-ranking by score cost a point or more of top-1 in cross-validation). Each label's
      // margin is over the most probable of the others.
      const ranked = order.map((c, i) => ({
        label: labels[c] as string,
        score: round(
          intentScore(
            {
              p: p[c] as number,
              pOther: i === 0 ? second : best,
              evidence: evidence(c, i),
              examples: counts[c] as number,
            },
            calibration,
          ),
        ),
      }));
      const top = ranked[0];
      return { label: top?.label ?? null, score: top?.score ?? 0, ranked, embedded: input.v !== null };
    },
  };
}

export function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
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
