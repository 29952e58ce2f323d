import { type Analyser } from './language.ts';
import { explainIntent, type IntentEvidence } from './intent-evidence.ts';
import {
  fitIntents,
  inputs,
  mostProbable,
  probabilities,
  type FittedIntents,
  type IntentModelOptions,
} from './intent-fit.ts';
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

export function trainIntentModel(
  examples: readonly LabelledText[],
  analyser: Analyser,
  options: IntentModelOptions = {},
): IntentModel {
  return trainIntentModelExplained(examples, analyser, options);
}

/** The intent model, which also tells what each prediction's score is made of (for tuning: bench/nlp/). */
export function trainIntentModelExplained(
  examples: readonly LabelledText[],
  analyser: Analyser,
  options: IntentModelOptions = {},
): IntentModel & { explain(text: string, embedding?: Float32Array | null): IntentEvidence | null } {
  const labels = [...new Set(examples.map((e) => e.label))];
  const usesEmbeddings =
    options.embeddings !== undefined && options.embeddings.length === examples.length && examples.length > 0;
  if (labels.length === 0)
    return {
      usesEmbeddings: false,
      predict: () => ({ label: null, score: 0, ranked: [], embedded: false }),
      explain: () => null,
    };
  const fitted = fitIntents(
    examples.map((e) => e.text),
    examples.map((e) => labels.indexOf(e.label)),
    labels,
    analyser,
    options,
    usesEmbeddings,
  );
  const scores = { word: options.wordScore ?? WORD_SCORE, embedded: options.embeddedScore ?? EMBEDDED_SCORE };
  return {
    usesEmbeddings,
    explain: (text, embedding) => explainIntent(fitted, text, embedding),
    predict: (text, embedding) => predictIntent(fitted, scores, text, embedding),
  };
}

function predictIntent(
  fitted: FittedIntents,
  scores: { readonly word: ScoreOptions; readonly embedded: ScoreOptions },
  text: string,
  embedding: Float32Array | null | undefined,
): IntentPrediction {
  const { labels, head, contentVectoriser, typical, counts, examplesByLabel } = fitted;
  const input = inputs(fitted, text, embedding);
  if (!input) return { label: null, score: 0, ranked: [], embedded: false };
  const p = probabilities(fitted, input.x, input.v);
  const content = input.v ? undefined : contentVectoriser.vector(text);
  const calibration = input.v ? scores.embedded : scores.word;
  const order = mostProbable(fitted, p);
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
        { p: p[c] as number, pOther: i === 0 ? second : best, evidence: evidence(c, i), examples: counts[c] as number },
        calibration,
      ),
    ),
  }));
  const top = ranked[0];
  return { label: top?.label ?? null, score: top?.score ?? 0, ranked, embedded: input.v !== null };
}

export function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
