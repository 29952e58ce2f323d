import { createHash } from 'node:crypto';
import { containerBootstrap } from '@nlpjs/core';
import { Nlp } from '@nlpjs/nlp';
import { LangEn } from '@nlpjs/lang-en-min';
import type { Intent } from '../definition/schema.ts';
import type { IntentClassification, IntentClassifier } from '../ports/understanding.ts';

/**
 * The intent classifier: NLP.js's neural classifier, trained offline at
 * start-up from the definition's utterances (no network, no saved model file).
 * The model id is a hash of the training data, so nlpLog rows say which
 * training produced a decision.
 */
export async function trainIntentClassifier(intents: readonly Intent[], locale: string): Promise<IntentClassifier> {
  const modelId = `nlpjs-${createHash('sha256').update(JSON.stringify(intents)).digest('hex').slice(0, 12)}`;
  const cached = models.get(modelId);
  if (cached) return cached;
  const training = train(intents, modelId, locale);
  models.set(modelId, training);
  training.catch(() => models.delete(modelId));
  return training;
}

/** Tests and benchmarks start many servers with one definition: train each set of intents once per process. */
const models = new Map<string, Promise<IntentClassifier>>();

async function train(intents: readonly Intent[], modelId: string, locale: string): Promise<IntentClassifier> {
  // lang-en-min is the only language pack installed; other locales still train, with English tokenisation.
  const language = 'en';
  void locale;
  const container = await containerBootstrap();
  container.use(Nlp);
  container.use(LangEn);
  const nlp = container.get('nlp');
  nlp.settings.autoSave = false;
  // Quiet training: the neural net would print every epoch to stdout (NLP.js's defaults for 'nlu-??', with log off).
  container.registerConfiguration(
    'nlu-??',
    { keepStopwords: true, nonefeatureValue: 1, nonedeltaMultiplier: 1.2, spellCheck: false, spellCheckDistance: 1, filterZeros: true, log: false },
    true,
  );
  nlp.addLanguage(language);
  for (const intent of intents) for (const utterance of intent.utterances) nlp.addDocument(language, utterance, intent.id);
  if (intents.length > 0) await nlp.train();
  return {
    async classify(text): Promise<IntentClassification> {
      if (intents.length === 0) return { modelId, intent: null, score: 0, classifications: [] };
      const result = await nlp.process(language, text);
      const classifications = (result.classifications ?? [])
        .filter((c) => c.intent !== 'None')
        .map((c) => ({ intent: c.intent, score: round(c.score) }))
        .sort((a, b) => b.score - a.score);
      const intent = result.intent && result.intent !== 'None' ? result.intent : null;
      return { modelId, intent, score: intent ? round(result.score) : 0, classifications };
    },
  };
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
