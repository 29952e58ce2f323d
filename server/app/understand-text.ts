import { understandingNeeded } from '../engine/engine.ts';
import type { EngineInput, Understanding } from '../engine/turn/types.ts';
import type { UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';

/** Each model's reading of one turn's text, once it ran (a failed classifier reads as nothing). */
export interface ModelReadings {
  nlp?: { readonly value: Understanding['nlp'] };
  faq?: { readonly value: Understanding['faq'] };
}

/**
 * Runs the intent classifier / FAQ matcher on the text when, and only when, the turn will use them
 * from where `user` rests; each runs at most once a turn (`models` keeps what they said for a retry).
 */
export async function understand(
  deps: AppDeps,
  user: UserRecord,
  input: EngineInput,
  models: ModelReadings,
): Promise<EngineInput> {
  if (input.kind !== 'text' && input.kind !== 'postback') return input;
  const needed = understandingNeeded(deps.definition, user, input);
  if (!needed.nlp && !needed.faq) return input;
  const text = input.kind === 'text' ? input.text : input.payload;
  if (needed.nlp && deps.classifier && !models.nlp) {
    try {
      models.nlp = { value: await deps.classifier.classify(text) };
    } catch (error) {
      models.nlp = { value: undefined };
      deps.logger.error(
        { userId: user.userId, err: error },
        'the intent classifier failed; the text is treated as unprocessed',
      );
    }
  }
  if (needed.faq && deps.faq && !models.faq) models.faq = { value: await deps.faq.match(text) };
  const understanding: { -readonly [K in keyof Understanding]: Understanding[K] } = {};
  if (needed.nlp && models.nlp?.value !== undefined) understanding.nlp = models.nlp.value;
  if (needed.faq && models.faq?.value !== undefined) understanding.faq = models.faq.value;
  return { ...input, understanding };
}
