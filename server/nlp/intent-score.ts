/**
 * The raw intent score: how sure the classifier is that a text means the intent it named, 0..1,
 * before the bot's calibration at load (intent-calibration.ts) maps it onto the chance of being
 * right and places the threshold; 0.7 on this scale was the fixed default before. A logistic function of three features, fitted
 * by cross-validation on the training splits of two public sets of different domains
 * (bench/nlp/fit-score.ts on the dumps of bench/nlp/tune-word-model.ts; docs/understanding.md
 * has the figures):
 *
 * - log(probability × evidence ramp). The probability says which intent wins, and is high for
 *   any text when a bot has few intents ("how is my driving" with two). The evidence is the
 *   text's similarity to the intent's nearest example over how close that intent's examples
 *   typically are to each other, from none at `floor` to full at `cap`; it does not depend on
 *   how many intents there are, and at or below `floor` the score is 0.
 * - the margin over the next most probable intent (log ratio, capped), scaled by the evidence
 *   ramp: a text between two intents is less sure than one that one intent claims alone, but
 *   with two intents every text has a large margin, so it counts only as far as there is
 *   evidence. (With embeddings it helped one set and cost the other: weight 0.)
 * - how many examples the intent has (log): with ten examples right answers have lower
 *   probabilities and evidence than with a hundred, and one cut-off for both turned away more
 *   unknown texts than needed at ten per intent while refusing right answers.
 *
 * The bias puts 0.7 where every cross-validated case (two sets × 10 per intent and three
 * quarters of each intent) turns away at least 64 % (words) or 66 % (embeddings) of texts
 * about intents the model was not trained on.
 */
export interface ScoreOptions {
  /** Evidence (similarity to the nearest example / typical similarity) at or below which the score is 0. */
  readonly floor: number;
  /** Evidence counted as full. */
  readonly cap: number;
  /** Weights of log (probability × evidence ramp), evidence ramp × margin over the next intent, log examples. */
  readonly weights: readonly [number, number, number];
  readonly bias: number;
}

/** What a score is computed from. */
export interface ScoreInput {
  /** The intent's probability, and the highest probability among the other intents. */
  readonly p: number;
  readonly pOther: number;
  /** Similarity to the intent's nearest example over the intent's typical similarity. */
  readonly evidence: number;
  /** The intent's training examples. */
  readonly examples: number;
}

const MARGIN_CAP = 5;
const log = (x: number): number => Math.log(Math.max(1e-9, x));

/** The evidence from none (0, at `floor`) to full (1, at `cap`). */
export function evidenceRamp(evidence: number, options: Pick<ScoreOptions, 'floor' | 'cap'>): number {
  return Math.max(0, Math.min(options.cap, evidence) - options.floor) / (options.cap - options.floor);
}

/** The features the logistic function reads, in the order of `ScoreOptions.weights`. */
export function scoreFeatures(
  input: ScoreInput,
  options: Pick<ScoreOptions, 'floor' | 'cap'>,
): [number, number, number] {
  const ramp = evidenceRamp(input.evidence, options);
  return [
    log(input.p * ramp),
    ramp * Math.min(MARGIN_CAP, log(input.p) - log(input.pOther)),
    Math.log(Math.max(1, input.examples)),
  ];
}

export function intentScore(input: ScoreInput, options: ScoreOptions): number {
  if (evidenceRamp(input.evidence, options) <= 0) return 0;
  const z = scoreFeatures(input, options).reduce((sum, x, i) => sum + x * (options.weights[i] as number), options.bias);
  return 1 / (1 + Math.exp(-z));
}

export const WORD_SCORE: ScoreOptions = { floor: 0.3, cap: 1.5, weights: [0.5281, 0.8602, -0.0502], bias: 1.3873 };
export const EMBEDDED_SCORE: ScoreOptions = { floor: 0.6, cap: 1, weights: [1.7443, 0, -0.0811], bias: 2.4796 };
