import { createHash } from 'node:crypto';
import type { Intent } from '../definition/schema.ts';
import type { EmbeddingProvider } from '../ports/embeddings.ts';
import type { IntentClassification, IntentClassifier } from '../ports/understanding.ts';
import { analyserFor } from './language.ts';
import { trainIntentModel, type IntentModel } from './intent-model.ts';

export interface IntentClassifierOptions {
  /** Sentence embeddings as a second feature set; words alone without. */
  readonly embeddings?: EmbeddingProvider;
  /** Told when a turn's text could not be embedded: that turn is classified on words alone. */
  readonly warn?: (message: string) => void;
}

/**
 * The intent classifier the server runs: trained in process at start-up from the
 * definition's utterances in the bot's locale, on word features and, with an
 * embedding provider, on sentence embeddings too. The model id names the training
 * data, the locale and the encoder (`tfidf-…` on words alone, `tfidf+<encoder>-…`
 * with embeddings), so nlpLog rows say which model decided. A turn whose text
 * cannot be embedded (an endpoint down or slow) is classified on words alone and
 * logged under the word model's id.
 */
export async function trainIntentClassifier(intents: readonly Intent[], locale: string, options: IntentClassifierOptions = {}): Promise<IntentClassifier> {
  const { embeddings, warn } = options;
  const digest = (parts: unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 12);
  const wordId = `tfidf-${digest([locale, intents])}`;
  const examples = intents.flatMap((intent) => intent.utterances.map((text) => ({ text, label: intent.id })));
  let vectors: Float32Array[] | undefined;
  // Through the provider's cache every time (never skipped by the memo below), so a start
  // encodes exactly the utterances the cache does not hold.
  if (embeddings && examples.length > 0) vectors = await embeddings.embed(examples.map((e) => e.text), 'batch');
  const modelId = embeddings ? `tfidf+${embeddings.modelId.replace(/[^\w.:/-]/g, '_')}-${digest([locale, intents, embeddings.modelId])}` : wordId;
  let model = models.get(modelId);
  if (!model) {
    model = trainIntentModel(examples, analyserFor(locale), { embeddings: vectors });
    remember(modelId, model);
  }
  const trained = model;
  return {
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
      return { modelId: embedded ? modelId : wordId, intent: label, score, classifications: ranked.map((r) => ({ intent: r.label, score: r.score })) };
    },
  };
}

/** Tests and benchmarks start many servers with one definition: train each model once per process (a few kept). */
const models = new Map<string, IntentModel>();
const MODELS_KEPT = 8;

function remember(id: string, model: IntentModel): void {
  models.set(id, model);
  if (models.size > MODELS_KEPT) models.delete(models.keys().next().value as string);
}
