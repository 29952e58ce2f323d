import type { BotDefinition } from '../definition/schema.ts';
import { analyserFor } from './language.ts';
import { trainIntentModel, type IntentModel, type LabelledText } from './intent-model.ts';
import { backgroundFor } from './background-corpus.ts';
import { calibrated, type Calibration } from './calibration.ts';
import { calibrateIntents } from './intent-calibration.ts';

/**
 * What a bot author should know before deploying: how well the intents'
 * own utterances classify each other when each is held out (k-fold
 * cross-validation through the same model the server trains), and which pairs
 * of intents the model mixes up.
 */
export interface IntentQualityReport {
  readonly intents: number;
  readonly utterances: number;
  readonly folds: number;
  /** Share of held-out utterances whose best intent is their own (null: too few utterances to tell). */
  readonly accuracy: number | null;
  /** Share routed right at the threshold the bot runs with (below it counts as a miss). */
  readonly accuracyAtThreshold: number | null;
  /** The threshold the bot runs with: the definition's nlpThreshold, else the calibrated one. */
  readonly threshold: number;
  /** Where `threshold` comes from: the author's nlpThreshold, or the classifier's calibration at load. */
  readonly thresholdSource: 'definition' | 'calibrated';
  /**
   * The threshold the classifier calibrates for this bot at load (intent-calibration.ts), which it
   * runs with unless the definition sets nlpThreshold. Null when there is too little to
   * cross-validate.
   */
  readonly suggestedThreshold: number | null;
  /**
   * Cross-validated at the calibrated threshold: share of held-out utterances routed right (this
   * report's folds, every intent kept), and share of out-of-scope texts turned away (held-out intents' utterances; with fewer than three
   * intents, the locale's off-topic sentences).
   */
  readonly atSuggested: { readonly routedRight: number; readonly outOfScopeRecall: number } | null;
  /** The calibration in full: expected shares at the calibrated threshold (calibration.ts). */
  readonly calibrated: {
    readonly threshold: number;
    readonly topOne: number;
    readonly inScopeRouted: number;
    readonly heldOutRefused: number | null;
    readonly backgroundRefused: number;
  } | null;
  /** Pairs of intents whose utterances were taken for each other, most often first. */
  readonly confusable: readonly {
    readonly intents: readonly [string, string];
    readonly count: number;
    readonly examples: readonly string[];
  }[];
  /** Intents with fewer utterances than a model needs to generalise. */
  readonly thinIntents: readonly string[];
  /** Sentences for a person, one finding each. */
  readonly findings: readonly string[];
}

const FOLDS = 5;
const THIN = 5;
/** Bounded so a definition with thousands of utterances is checked in seconds, not minutes. */
const MAX_UTTERANCES = 3_000;

/** What the report reads of a definition: a whole BotDefinition fits. */
export interface QualityInput {
  readonly intents: BotDefinition['intents'];
  readonly settings: Pick<BotDefinition['settings'], 'locale' | 'nlpThreshold'>;
}

export interface QualityOptions {
  /** Sentence embeddings of the utterances, when the bot runs with them: the report then cross-validates the model the server runs. */
  readonly embeddings?: ReadonlyMap<string, Float32Array>;
}

export function reportIntentQuality(definition: QualityInput, options: QualityOptions = {}): IntentQualityReport {
  const { intents, settings } = definition;
  const analyser = analyserFor(settings.locale);
  const examples: LabelledText[] = intents
    .flatMap((i) => i.utterances.map((text) => ({ text, label: i.id })))
    .slice(0, MAX_UTTERANCES);
  const thinIntents = intents.filter((i) => i.utterances.length < THIN).map((i) => i.id);
  const findings: string[] = [];
  const scale = calibrationOf(examples, settings.locale, options.embeddings);
  const threshold = settings.nlpThreshold ?? scale.threshold;
  const thresholdSource = settings.nlpThreshold === undefined ? 'calibrated' : 'definition';
  if (intents.length < 2 || examples.length < 2 * FOLDS) {
    if (intents.length > 0)
      findings.push('Too few intents or utterances to cross-validate: add more example phrasings.');
    return {
      intents: intents.length,
      utterances: examples.length,
      folds: 0,
      accuracy: null,
      accuracyAtThreshold: null,
      threshold,
      thresholdSource,
      suggestedThreshold: null,
      atSuggested: null,
      calibrated: null,
      confusable: [],
      thinIntents,
      findings,
    };
  }
  const { tested, correct, routed, routedAtCalibrated, confusable } = crossValidate(examples, train, {
    scale,
    threshold,
    embeddings: options.embeddings,
  });
  const expected = scale.expected;
  // Routed right from this report's own folds, which keep every intent (the calibration's folds leave a
  // quarter out, so fewer intents compete and more is routed there); turned away from the calibration's.
  const suggestion = expected
    ? {
        threshold: scale.threshold,
        routedRight: routedAtCalibrated / tested,
        outOfScopeRecall: expected.heldOutRefused ?? expected.backgroundRefused,
      }
    : null;
  const accuracy = correct / tested;
  const accuracyAtThreshold = routed / tested;
  findings.push(
    ...qualityFindings({
      accuracy,
      accuracyAtThreshold,
      threshold,
      thresholdSource,
      suggestion,
      expected,
      confusable,
      thinIntents,
    }),
  );
  return {
    intents: intents.length,
    utterances: examples.length,
    folds: FOLDS,
    accuracy: round(accuracy),
    accuracyAtThreshold: round(accuracyAtThreshold),
    threshold,
    thresholdSource,
    suggestedThreshold: suggestion?.threshold ?? null,
    atSuggested: suggestion
      ? { routedRight: round(suggestion.routedRight), outOfScopeRecall: round(suggestion.outOfScopeRecall) }
      : null,
    calibrated: expected
      ? {
          threshold: scale.threshold,
          topOne: round(expected.topOne),
          inScopeRouted: round(expected.inScopeRouted),
          heldOutRefused: expected.heldOutRefused === null ? null : round(expected.heldOutRefused),
          backgroundRefused: round(expected.backgroundRefused),
        }
      : null,
    confusable,
    thinIntents,
    findings,
  };

  function train(subset: readonly LabelledText[]) {
    const vectors = options.embeddings;
    return trainIntentModel(
      subset,
      analyser,
      vectors ? { embeddings: subset.map((e) => vectors.get(e.text) ?? new Float32Array(0)) } : {},
    );
  }
}

/**
 * k-fold cross-validation: each fold held out in turn from a model trained on the rest; how many held-out
 * utterances were predicted as their own intent, how many of those were routed (at the bot's threshold and at the
 * calibrated one), and which pairs of intents were taken for each other.
 */
function crossValidate(
  examples: readonly LabelledText[],
  train: (subset: readonly LabelledText[]) => IntentModel,
  at: { readonly scale: Calibration; readonly threshold: number; readonly embeddings: QualityOptions['embeddings'] },
): {
  tested: number;
  correct: number;
  routed: number;
  routedAtCalibrated: number;
  confusable: IntentQualityReport['confusable'];
} {
  // Round-robin folds within each intent, so every fold holds some of each.
  const seen = new Map<string, number>();
  const fold = examples.map((e) => {
    const n = seen.get(e.label) ?? 0;
    seen.set(e.label, n + 1);
    return n % FOLDS;
  });
  let correct = 0;
  let routed = 0;
  let routedAtCalibrated = 0;
  let tested = 0;
  const confusions = new Map<string, { intents: [string, string]; count: number; examples: string[] }>();
  for (let f = 0; f < FOLDS; f++) {
    const model = train(examples.filter((_, i) => fold[i] !== f));
    examples.forEach((example, i) => {
      if (fold[i] !== f) return;
      // An intent all of whose utterances sit in this fold cannot be predicted: it is counted, which is the point.
      tested++;
      const prediction = model.predict(example.text, at.embeddings?.get(example.text));
      if (prediction.label === example.label) {
        correct++;
        if (calibrated(prediction.score, at.scale) >= at.threshold) routed++;
        if (calibrated(prediction.score, at.scale) >= at.scale.threshold) routedAtCalibrated++;
      } else if (prediction.label !== null) {
        const pair = [example.label, prediction.label].sort() as [string, string];
        const key = pair.join('\u0000');
        const entry = confusions.get(key) ?? { intents: pair, count: 0, examples: [] };
        entry.count++;
        if (entry.examples.length < 3)
          entry.examples.push(`"${example.text}" (${example.label}) → ${prediction.label}`);
        confusions.set(key, entry);
      }
    });
  }
  const confusable = [...confusions.values()]
    .filter((c) => c.count >= 2)
    .sort((a, b) => b.count - a.count)
    .slice(0, 20);
  return { tested, correct, routed, routedAtCalibrated, confusable };
}

/** The report's sentences for a person, one finding each. */
function qualityFindings(report: {
  readonly accuracy: number;
  readonly accuracyAtThreshold: number;
  readonly threshold: number;
  readonly thresholdSource: IntentQualityReport['thresholdSource'];
  readonly suggestion: {
    readonly threshold: number;
    readonly routedRight: number;
    readonly outOfScopeRecall: number;
  } | null;
  readonly expected: Calibration['expected'];
  readonly confusable: IntentQualityReport['confusable'];
  readonly thinIntents: readonly string[];
}): string[] {
  const { accuracy, accuracyAtThreshold, threshold, thresholdSource, suggestion, expected, confusable, thinIntents } =
    report;
  const findings: string[] = [];
  findings.push(
    `${percent(accuracy)} of utterances are classified as their own intent when held out; ${percent(accuracyAtThreshold)} clear the threshold ${threshold}.`,
  );
  if (suggestion) {
    findings.push(
      `Calibrated nlpThreshold: ${suggestion.threshold} (cross-validated: ${percent(suggestion.routedRight)} of utterances routed right, ${percent(suggestion.outOfScopeRecall)} of texts about ${expected?.heldOutRefused === null ? 'nothing the bot is for' : 'intents the bot lacks'} turned away)` +
        (thresholdSource === 'calibrated'
          ? '; the bot uses it.'
          : `; the definition sets ${threshold}, which the bot uses instead.`),
    );
  }
  for (const c of confusable)
    findings.push(
      `Intents "${c.intents[0]}" and "${c.intents[1]}" are confused ${c.count} times: make their phrasings more distinct, or merge them.`,
    );
  if (thinIntents.length > 0)
    findings.push(
      `Intents with fewer than ${THIN} utterances: ${thinIntents.join(', ')}. Ten or more varied phrasings each generalise far better.`,
    );
  return findings;
}

/**
 * The calibration the server's classifier finds for the same utterances (intent-classifier.ts):
 * with embeddings, the embedded scale (off-topic sentences counted when the map holds them).
 */
function calibrationOf(
  examples: readonly LabelledText[],
  locale: string,
  embeddings: ReadonlyMap<string, Float32Array> | undefined,
): Calibration {
  const background = backgroundFor(locale);
  const vectors = embeddings ? examples.map((e) => embeddings.get(e.text)) : undefined;
  const complete = vectors?.every((v): v is Float32Array => v !== undefined) ? vectors : undefined;
  const backgroundVectors = background.map((t) => embeddings?.get(t));
  const backgroundComplete = backgroundVectors.every((v): v is Float32Array => v !== undefined)
    ? backgroundVectors
    : undefined;
  const found = calibrateIntents({
    examples,
    analyser: analyserFor(locale),
    background,
    ...(complete ? { embeddings: complete } : {}),
    ...(complete && backgroundComplete ? { backgroundEmbeddings: backgroundComplete } : {}),
  });
  return found.embedded ?? found.words;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The report as lines for a terminal: what a `check` command prints. */
export function formatIntentQuality(report: IntentQualityReport): string {
  const head = `Intents: ${report.intents}, utterances: ${report.utterances}${report.folds > 0 ? `, ${report.folds}-fold cross-validation` : ''}`;
  return [
    head,
    ...report.findings.map((f) => `- ${f}`),
    ...report.confusable.flatMap((c) => c.examples.map((e) => `    ${e}`)),
  ].join('\n');
}
