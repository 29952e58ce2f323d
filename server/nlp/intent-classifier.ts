import { createHash } from 'node:crypto';
import type { Intent } from '../definition/schema.ts';
import type { EmbeddingProvider } from '../ports/embeddings.ts';
import type { IntentClassification, IntentClassifier } from '../ports/understanding.ts';
import { analyserFor } from './language.ts';
import { trainIntentModel, type IntentModel } from './intent-model.ts';
import { backgroundFor } from './background-corpus.ts';
import { calibrated, type Calibration, type CalibrationTargets } from './calibration.ts';
import { CALIBRATION_RECIPE, calibrateIntents, type IntentCalibrations } from './intent-calibration.ts';
import { calibrationKey, calibrationStoreOf, type CalibrationStore } from './calibration-store.ts';

export interface IntentClassifierOptions {
  /** Sentence embeddings as a second feature set; words alone without. */
  readonly embeddings?: EmbeddingProvider;
  /** Told when a turn's text could not be embedded: that turn is classified on words alone. */
  readonly warn?: (message: string) => void;
  /** For tuning (bench/nlp/tune-calibration.ts): other calibration targets than the defaults. */
  readonly targets?: { readonly words?: CalibrationTargets; readonly embedded?: CalibrationTargets };
  /**
   * Where the calibration is kept across restarts when the bot runs with embeddings: by default
   * beside the embedding cache (calibration-store.ts). On words alone it is computed at each start.
   */
  readonly calibrations?: CalibrationStore;
}

/** The classifier, with the calibration it found for the bot at load (intent-calibration.ts). */
export interface CalibratedIntentClassifier extends IntentClassifier {
  readonly calibration: IntentCalibrations;
}

/**
 * The intent classifier the server runs: trained in process at start-up from the
 * definition's utterances in the bot's locale, on word features and, with an
 * embedding provider, on sentence embeddings too. The model id names the training
 * data, the locale and the encoder (`tfidf-…` on words alone, `tfidf+<encoder>-…`
 * with embeddings), so nlpLog rows say which model decided. A turn whose text
 * cannot be embedded (an endpoint down or slow) is classified on words alone and
 * logged under the word model's id.
 *
 * At load the classifier also calibrates itself on the bot's own utterances and the locale's
 * off-topic sentences (intent-calibration.ts): its scores are then the cross-validated chance
 * that the intent named is right, and each classification carries the threshold the bot runs
 * with when its definition sets no `nlpThreshold`.
 */
export async function trainIntentClassifier(
  intents: readonly Intent[],
  locale: string,
  options: IntentClassifierOptions = {},
): Promise<CalibratedIntentClassifier> {
  const { embeddings, warn, targets } = options;
  const digest = (parts: unknown[]): string =>
    createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 12);
  const wordId = `tfidf-${digest([locale, intents])}`;
  const examples = intents.flatMap((intent) => intent.utterances.map((text) => ({ text, label: intent.id })));
  let vectors: Float32Array[] | undefined;
  // Through the provider's cache every time (never skipped by the memo below), so a start
  // encodes exactly the utterances the cache does not hold.
  if (embeddings && examples.length > 0)
    vectors = await embeddings.embed(
      examples.map((e) => e.text),
      'batch',
    );
  const modelId = embeddings
    ? `tfidf+${embeddings.modelId.replace(/[^\w.:/-]/g, '_')}-${digest([locale, intents, embeddings.modelId])}`
    : wordId;
  const memoKey = targets ? `${modelId} ${JSON.stringify(targets)}` : modelId;
  let entry = models.get(memoKey);
  if (!entry) {
    const analyser = analyserFor(locale);
    const background = backgroundFor(locale);
    // The off-topic sentences go through the provider's cache too: a restart encodes none of them again.
    const backgroundEmbeddings =
      vectors && background.length > 0 ? await embeddings?.embed(background, 'batch') : undefined;
    const input = {
      examples,
      analyser,
      ...(vectors ? { embeddings: vectors } : {}),
      background,
      ...(backgroundEmbeddings ? { backgroundEmbeddings } : {}),
    };
    const store = vectors && embeddings ? (options.calibrations ?? calibrationStoreOf(embeddings)) : undefined;
    const key =
      store &&
      calibrationKey(
        [CALIBRATION_RECIPE, targets ?? null, locale, examples, background],
        [vectors ?? [], backgroundEmbeddings ?? []],
      );
    let calibration = key ? store?.read(key) : undefined;
    if (!calibration) {
      calibration = calibrateIntents(input, targets);
      if (key) store?.write(key, calibration);
    }
    entry = { model: trainIntentModel(examples, analyser, { embeddings: vectors }), calibration };
    remember(memoKey, entry);
  }
  const { model: trained, calibration } = entry;
  return {
    calibration,
    async classify(text): Promise<IntentClassification> {
      let embedding: Float32Array | null = null;
      if (embeddings && trained.usesEmbeddings) {
        try {
          [embedding = null] = await embeddings.embed([text], 'query');
        } catch (error) {
          warn?.(`a turn's text could not be embedded; it was classified on words alone: ${(error as Error).message}`);
        }
      }
      const { label, score, ranked, embedded } = trained.predict(text, embedding);
      // Scores on the calibrated scale of the features that decided (a turn on words alone reads the words' one).
      const scale: Calibration = (embedded ? calibration.embedded : undefined) ?? calibration.words;
      return {
        modelId: embedded ? modelId : wordId,
        intent: label,
        score: calibrated(score, scale),
        threshold: scale.threshold,
        classifications: ranked.map((r) => ({ intent: r.label, score: calibrated(r.score, scale) })),
      };
    },
  };
}

/** Tests and benchmarks start many servers with one definition: train each model once per process (a few kept). */
const models = new Map<string, { model: IntentModel; calibration: IntentCalibrations }>();
const MODELS_KEPT = 8;

/** For benchmarks of a restart: the process forgets what it trained, as a new process would. */
export function forgetTrainedModels(): void {
  models.clear();
}

function remember(id: string, model: { model: IntentModel; calibration: IntentCalibrations }): void {
  models.set(id, model);
  if (models.size > MODELS_KEPT) models.delete(models.keys().next().value as string);
}
