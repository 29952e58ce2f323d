import type { Analyser } from './language.ts';
import {
  calibrate,
  type Calibration,
  type CalibrationSamples,
  type CalibrationTargets,
  type ScoredSample,
} from './calibration.ts';
import { EMBEDDING_WEIGHT, WORD_MODEL } from './intent-fit.ts';
import { trainIntentModel, type LabelledText } from './intent-model.ts';
import { EMBEDDED_SCORE, WORD_SCORE } from './intent-score.ts';
import { EMBEDDING_HEAD } from './embedding-head.ts';

/**
 * The intent classifier's calibration at load (calibration.ts): the bot's utterances in four
 * folds, round-robin within each intent; each fold's model is trained on the other three folds
 * with every fourth intent (a different quarter each time) left out entirely. It is asked about
 * the fold's utterances of the intents it knows (in scope, right or wrong), about utterances of
 * the intents it never saw (the bot's domain, but nothing the bot is for) and about the locale's
 * off-topic sentences. With embeddings the same models answer twice, with and without the text's
 * embedding, so a turn that falls back to words alone is judged on the words' own scale.
 */
export interface IntentCalibrations {
  readonly words: Calibration;
  /** Present when the model was trained with embeddings. */
  readonly embedded?: Calibration;
}

export interface IntentCalibrationInput {
  readonly examples: readonly LabelledText[];
  readonly analyser: Analyser;
  /** One per example, in order, when the bot runs with embeddings. */
  readonly embeddings?: readonly Float32Array[];
  readonly background: readonly string[];
  /** One per background sentence, in order, with embeddings. */
  readonly backgroundEmbeddings?: readonly Float32Array[];
}

const FOLDS = 4;
/** Bounds on the texts asked, so a bot of thousands of utterances calibrates in about as long as it trains. */
const MAX_IN_SCOPE = 1_200;
const MAX_HELD_OUT = 600;
/**
 * The folds' word models train six passes, not the bot's ten: they only estimate where scores
 * fall, and on both public sets (ten per intent) six moved the expected shares by under a point
 * and the threshold by under 0.02, for a third less CPU at load (docs/understanding.md).
 */
const FOLD_MODEL = { ...WORD_MODEL, epochs: 6 };

/**
 * Out-of-scope shares the threshold is placed to turn away in cross-validation, chosen on the
 * public sets' training splits (bench/nlp/tune-calibration.ts) and checked on the other set's test
 * split (bench/nlp-understanding.ts); docs/understanding.md has the figures. The off-topic share is
 * low because a bot's domain may cover some of those sentences (a home assistant plays jazz): with
 * held-out intents to go by, the list only stops a threshold that would let most of it through.
 */
export const WORD_TARGETS: CalibrationTargets = {
  heldOutRefused: 0.75,
  backgroundRefused: 0.65,
  backgroundAloneRefused: 0.98,
  minRaw: 0.3,
  maxRaw: 0.9,
};
export const EMBEDDED_TARGETS: CalibrationTargets = {
  heldOutRefused: 0.75,
  backgroundRefused: 0.65,
  backgroundAloneRefused: 0.98,
  minRaw: 0.3,
  maxRaw: 0.9,
};

/**
 * What a calibration is computed with besides its input: a kept calibration (calibration-store.ts)
 * is used only when all of it is the same. `version` goes up when the method changes in a way
 * these values do not show.
 */
export const CALIBRATION_RECIPE = {
  version: 1,
  folds: FOLDS,
  maxInScope: MAX_IN_SCOPE,
  maxHeldOut: MAX_HELD_OUT,
  foldModel: FOLD_MODEL,
  words: WORD_TARGETS,
  embedded: EMBEDDED_TARGETS,
  wordScore: WORD_SCORE,
  embeddedScore: EMBEDDED_SCORE,
  head: EMBEDDING_HEAD,
  embeddingWeight: EMBEDDING_WEIGHT,
};

export function calibrateIntents(
  input: IntentCalibrationInput,
  targets: { words?: CalibrationTargets; embedded?: CalibrationTargets } = {},
): IntentCalibrations {
  const samples = intentSamples(input);
  const words = calibrate(samples.words, targets.words ?? WORD_TARGETS);
  return samples.embedded
    ? { words, embedded: calibrate(samples.embedded, targets.embedded ?? EMBEDDED_TARGETS) }
    : { words };
}

/** The cross-validated scores, raw (for tuning the targets on a public set's training split). */
export function intentSamples(input: IntentCalibrationInput): {
  words: CalibrationSamples;
  embedded?: CalibrationSamples;
} {
  const { examples, analyser, embeddings, background, backgroundEmbeddings } = input;
  const labels = [...new Set(examples.map((e) => e.label))];
  const withEmbeddings = embeddings !== undefined && embeddings.length === examples.length;
  const words = { inScope: [] as ScoredSample[], heldOut: [] as number[], background: [] as number[] };
  const embedded = { inScope: [] as ScoredSample[], heldOut: [] as number[], background: [] as number[] };
  if (labels.length < 2 || examples.length < 2 * FOLDS) return withEmbeddings ? { words, embedded } : { words };
  const seen = new Map<string, number>();
  const fold = examples.map((e) => {
    const n = seen.get(e.label) ?? 0;
    seen.set(e.label, n + 1);
    return n % FOLDS;
  });
  // With two intents, leaving one out leaves a model that can name only one: then none is left out.
  const holdOut = labels.length >= 3;
  const inScopeEvery = Math.max(1, Math.ceil(examples.length / MAX_IN_SCOPE));
  // Every fold reads the same texts: each is read once (the models go when the calibration is done).
  const memo = { features: new Map(), content: new Map() };
  for (let f = 0; f < FOLDS; f++) {
    const absent = new Set(holdOut ? labels.filter((_, i) => i % FOLDS === f) : []);
    const training = examples.map((e, i) => ({ e, i })).filter(({ e, i }) => fold[i] !== f && !absent.has(e.label));
    if (new Set(training.map(({ e }) => e.label)).size < 2) continue;
    const model = trainIntentModel(
      training.map(({ e }) => e),
      analyser,
      {
        word: FOLD_MODEL,
        memo,
        ...(withEmbeddings ? { embeddings: training.map(({ i }) => embeddings[i] as Float32Array) } : {}),
      },
    );
    const ask = (
      text: string,
      vector: Float32Array | undefined,
      right: string | null,
      into: 'inScope' | 'heldOut' | 'background',
    ): void => {
      const plain = model.predict(text, null);
      record(words, into, plain.score, right !== null && plain.label === right);
      if (withEmbeddings && vector) {
        const both = model.predict(text, vector);
        record(embedded, into, both.score, right !== null && both.label === right);
      }
    };
    const absentCount = examples.filter((e) => absent.has(e.label)).length;
    const heldOutEvery = Math.max(1, Math.ceil((absentCount * FOLDS) / MAX_HELD_OUT));
    let nthAbsent = 0;
    examples.forEach((e, i) => {
      const vector = withEmbeddings ? embeddings[i] : undefined;
      if (absent.has(e.label)) {
        if (nthAbsent++ % heldOutEvery === 0) ask(e.text, vector, null, 'heldOut');
      } else if (fold[i] === f && i % inScopeEvery === 0) ask(e.text, vector, e.label, 'inScope');
    });
    background.forEach((text, i) => ask(text, backgroundEmbeddings?.[i], null, 'background'));
  }
  return withEmbeddings ? { words, embedded } : { words };
}

function record(
  samples: { inScope: ScoredSample[]; heldOut: number[]; background: number[] },
  into: 'inScope' | 'heldOut' | 'background',
  score: number,
  right: boolean,
): void {
  if (into === 'inScope') samples.inScope.push({ score, right });
  else samples[into].push(score);
}
