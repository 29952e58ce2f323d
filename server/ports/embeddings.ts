/**
 * Sentence embeddings: a text in, a fixed-length vector out, texts of like meaning
 * close together. The intent classifier and the FAQ matcher use them beside their
 * word features when main.ts wires a provider (EMBEDDINGS); without one they work
 * on words alone. Adapters: a local ONNX encoder and an OpenAI-compatible HTTP
 * endpoint (server/nlp/embeddings/).
 */
export interface EmbeddingProvider {
  /**
   * Names the model (and for a remote one, where it runs): the embedding cache is keyed by it,
   * and nlpLog's modelId carries it, so a row says which encoder decided.
   */
  readonly modelId: string;
  /**
   * One L2-normalised vector per text, in order, all of one length. `batch` is for training
   * data (many texts, a generous deadline); `query` is for a user's text in a turn (one text,
   * a short deadline). Throws EmbeddingError.
   */
  embed(texts: readonly string[], kind: EmbeddingKind): Promise<Float32Array[]>;
  /** Frees the model or the connections; the provider is not used afterwards. */
  close(): Promise<void>;
}

export type EmbeddingKind = 'batch' | 'query';

/** Why embeddings could not be had; the message is for operators and never holds a secret. */
export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError';
  constructor(
    readonly kind: 'unavailable' | 'timeout' | 'invalid_answer' | 'refused',
    message: string,
  ) {
    super(message);
  }
}
