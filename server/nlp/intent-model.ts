import { type Analyser } from './language.ts';
import { dot, fitVectoriser, type SparseVector } from './features.ts';
import { softmaxInPlace, trainSoftmax } from './linear-model.ts';

/**
 * The intent model: TF-IDF features (word stems, pairs and character n-grams)
 * and a multinomial logistic regression over the intents, trained in process.
 *
 * The score of the best intent is its softened probability times an evidence
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
  /** The best label, or null when there is nothing to predict from. */
  readonly label: string | null;
  /** 0..1: probability × evidence for the best label. */
  readonly score: number;
  /** Labels best first with the same kind of score (at most `MAX_RANKED`). */
  readonly ranked: readonly { readonly label: string; readonly score: number }[];
}

export interface IntentModel {
  predict(text: string): IntentPrediction;
}

/**
 * Softmax temperature and the evidence ramp below were chosen on the public
 * BANKING77 set (bench/nlp-banking77.ts) so that the default threshold 0.7
 * keeps most in-scope texts and turns away most out-of-scope ones; the bench
 * prints where that lands.
 */
const TEMPERATURE = 0.5;
/**
 * Evidence compares a text's similarity to the intent's nearest example with how
 * close that intent's examples typically are to each other: an intent with 130
 * examples has near neighbours for almost anything, one with 10 does not, and a
 * fixed cut-off would mean different things for each. Below this share of the
 * typical similarity a text counts as no evidence at all …
 */
const EVIDENCE_FLOOR = 0.4;
/** … and above this share as full evidence; linear in between. */
const EVIDENCE_FULL = 0.8;
/** Bounds on an intent's typical similarity: two or three examples say little about it. */
const TYPICAL_MIN = 0.3;
const TYPICAL_MAX = 0.9;
const TYPICAL_SAMPLE = 200;
const MAX_RANKED = 5;

export function trainIntentModel(examples: readonly LabelledText[], analyser: Analyser): IntentModel {
  const labels = [...new Set(examples.map((e) => e.label))];
  if (labels.length === 0) return { predict: () => ({ label: null, score: 0, ranked: [] }) };
  const vectoriser = fitVectoriser(
    examples.map((e) => e.text),
    analyser,
    // More weight on character n-grams than the FAQ gives them: with ten examples an intent's
    // word forms are sparse, and shared word parts generalise (BANKING77: +1 point at 10 per intent).
    { keepStopwords: true, wordWeight: 0.4 },
  );
  const xs = examples.map((e) => vectoriser.vector(e.text));
  const ys = examples.map((e) => labels.indexOf(e.label));
  // Ten passes at a high rate reach the accuracy of thirty at a low one (BANKING77), in a third of the start-up time.
  const model = trainSoftmax(xs, ys, labels.length, vectoriser.size, { epochs: 10, learningRate: 2, l2: 1e-5 });
  // Evidence counts content words only: "how is my driving" shares "how is my" with half of any
  // bot's examples, and that is no evidence of anything.
  const contentVectoriser = fitVectoriser(
    examples.map((e) => e.text),
    analyser,
  );
  const contents = examples.map((e) => contentVectoriser.vector(e.text));
  const byLabel = labels.map((_, c) => contents.filter((_, i) => ys[i] === c));

  const typical = byLabel.map((group) => typicalNearest(group));
  const evidence = (x: SparseVector, c: number): number => {
    let best = 0;
    for (const example of byLabel[c] ?? []) best = Math.max(best, dot(x, example));
    const ratio = best / (typical[c] as number);
    return Math.min(1, Math.max(0, (ratio - EVIDENCE_FLOOR) / (EVIDENCE_FULL - EVIDENCE_FLOOR)));
  };


  return {
    predict(text) {
      const x = vectoriser.vector(text);
      if (x.indices.length === 0) return { label: null, score: 0, ranked: [] };
      const content = contentVectoriser.vector(text);
      const p = model.logits(x);
      softmaxInPlace(p, TEMPERATURE);
      const order = labels.map((_, c) => c).sort((a, b) => (p[b] as number) - (p[a] as number)).slice(0, MAX_RANKED);
      const ranked = order
        .map((c) => ({ label: labels[c] as string, score: round((p[c] as number) * evidence(content, c)) }))
        .sort((a, b) => b.score - a.score);
      const top = ranked[0];
      return top && top.score > 0 ? { label: top.label, score: top.score, ranked } : { label: null, score: 0, ranked };
    },
  };
}

export function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

/** The median, over an intent's examples, of each one's similarity to its nearest sibling (bounded). */
function typicalNearest(all: readonly SparseVector[]): number {
  // Quadratic in the examples: an evenly spread sample of 200 tells the median as well as 2,000.
  const group = all.length > TYPICAL_SAMPLE ? all.filter((_, i) => i % Math.ceil(all.length / TYPICAL_SAMPLE) === 0) : all;
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
