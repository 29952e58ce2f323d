import { createHash } from 'node:crypto';
import type { Intent } from '../definition/schema.ts';
import type { IntentClassification, IntentClassifier } from '../ports/understanding.ts';
import { analyserFor } from './language.ts';
import { trainIntentModel } from './intent-model.ts';

/**
 * The intent classifier the server runs: trained in process at start-up from
 * the definition's utterances in the bot's locale (no network, no model file).
 * The model id is a hash of the training data and locale, so nlpLog rows say
 * which training produced a decision.
 */
export async function trainIntentClassifier(intents: readonly Intent[], locale: string): Promise<IntentClassifier> {
  const modelId = `tfidf-${createHash('sha256').update(JSON.stringify([locale, intents])).digest('hex').slice(0, 12)}`;
  let classifier = models.get(modelId);
  if (!classifier) {
    classifier = train(intents, modelId, locale);
    models.set(modelId, classifier);
  }
  return classifier;
}

/** Tests and benchmarks start many servers with one definition: train each set of intents once per process. */
const models = new Map<string, IntentClassifier>();

function train(intents: readonly Intent[], modelId: string, locale: string): IntentClassifier {
  const model = trainIntentModel(
    intents.flatMap((intent) => intent.utterances.map((text) => ({ text, label: intent.id }))),
    analyserFor(locale),
  );
  return {
    async classify(text): Promise<IntentClassification> {
      const { label, score, ranked } = model.predict(text);
      return { modelId, intent: label, score, classifications: ranked.map((r) => ({ intent: r.label, score: r.score })) };
    },
  };
}
