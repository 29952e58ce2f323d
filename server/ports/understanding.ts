/**
 * The models that read free text: an intent classifier and a fuzzy FAQ
 * matcher, both trained from the bot definition at start-up (server/nlp/).
 * Use cases run them before a turn and hand the results to the pure engine.
 */

export interface IntentClassification {
  /** Names the trained model, so nlpLog rows say which model decided. */
  readonly modelId: string;
  /** The most probable intent (its score says whether to trust it), or null when the model has none to offer. */
  readonly intent: string | null;
  /** 0..1: the chance, cross-validated on the bot's own utterances, that the intent named is right. */
  readonly score: number;
  /** The bot's calibrated threshold for this score: used when neither the step nor the definition sets one. */
  readonly threshold: number;
  /** The most probable intents with their scores, most probable first. */
  readonly classifications: readonly { readonly intent: string; readonly score: number }[];
}

export interface IntentClassifier {
  classify(text: string): Promise<IntentClassification>;
}

export interface FaqMatch {
  /** The closest FAQ pair's id, or null when none is close at all. */
  readonly id: string | null;
  /** 0..1, 1 = exact. */
  readonly score: number;
  /** The matcher's calibrated threshold: used when neither the step nor the definition sets one. */
  readonly threshold: number;
  readonly others: readonly { readonly id: string; readonly score: number }[];
}

export interface FaqMatcher {
  /** Never rejects: a question that cannot be embedded is matched on words alone. */
  match(text: string): Promise<FaqMatch>;
}
