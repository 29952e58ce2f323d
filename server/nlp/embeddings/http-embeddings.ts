import { z } from 'zod';
import { EmbeddingError, type EmbeddingKind, type EmbeddingProvider } from '../../ports/embeddings.ts';
import { normalise } from './vectors.ts';

/**
 * Embeddings from an OpenAI-compatible `POST …/v1/embeddings` endpoint: a local
 * text-embeddings server, Ollama, vLLM, or a hosted service. Requests leave through
 * the integration layer's guarded client (main.ts hands it in), so the same rules
 * apply as to an integration call: no private or loopback address unless its host is
 * in INTEGRATION_ALLOWED_HOSTS, every hop re-checked, a deadline and a size cap.
 */
export interface HttpEmbeddingsOptions {
  /** The endpoint itself, e.g. http://127.0.0.1:11434/v1/embeddings. */
  readonly url: string;
  /** The `model` field of each request. */
  readonly model: string;
  /** Sent as `Authorization: Bearer …`; never logged, never part of an error. */
  readonly apiKey?: string;
  /** Deadline for a user's text in a turn (ms). */
  readonly queryTimeoutMs: number;
  /** Deadline for one request of training texts (ms). */
  readonly batchTimeoutMs?: number;
  /** Texts per request when embedding training data. */
  readonly batchSize?: number;
}

/** What the adapter needs of an HTTP client: SafeHttpClient fits. */
export interface EmbeddingHttpSender {
  send(request: {
    readonly url: string;
    readonly method: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly timeoutMs?: number;
    readonly maxBytes?: number;
    readonly maxRedirects?: number;
  }): Promise<{ readonly status: number; readonly body: Buffer }>;
  close(): void;
}

/** The answer as the OpenAI reference describes it; extra fields (usage, object) are ignored. */
const answerSchema = z.object({
  data: z
    .array(
      z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number().finite()).min(1).max(16_384) }),
    )
    .min(1),
});

const DEFAULT_BATCH = 64;
const DEFAULT_BATCH_TIMEOUT = 30_000;
/** 64 texts × 4,096 dimensions as JSON numbers stay well under this. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** A turn's text is a sentence; a pasted page is cut before it costs the encoder anything. */
const MAX_TEXT = 2_000;

export function httpEmbeddings(options: HttpEmbeddingsOptions, http: EmbeddingHttpSender): EmbeddingProvider {
  const host = new URL(options.url).host;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let dimensions: number | undefined;

  const request = async (texts: readonly string[], timeoutMs: number): Promise<Float32Array[]> => {
    let response: { status: number; body: Buffer };
    try {
      response = await http.send({
        url: options.url,
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: options.model,
          input: texts.map((t) => t.slice(0, MAX_TEXT) || ' '),
          encoding_format: 'float',
        }),
        timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        maxRedirects: 0,
      });
    } catch (error) {
      const kind = (error as { kind?: string }).kind;
      const message = (error as Error).message;
      if (kind === 'timeout')
        throw new EmbeddingError(
          'timeout',
          `The embeddings endpoint at ${host} did not answer within ${timeoutMs} ms (EMBEDDINGS_TIMEOUT).`,
        );
      if (kind === 'forbidden_destination')
        throw new EmbeddingError('refused', `EMBEDDINGS_URL is refused: ${message}`);
      throw new EmbeddingError('unavailable', `The embeddings endpoint could not be reached: ${message}`);
    }
    if (response.status < 200 || response.status > 299) {
      const hint =
        response.status === 401 || response.status === 403
          ? ' (check EMBEDDINGS_API_KEY)'
          : response.status === 404
            ? ' (check EMBEDDINGS_URL and EMBEDDINGS_MODEL)'
            : '';
      throw new EmbeddingError('unavailable', `The embeddings endpoint at ${host} answered ${response.status}${hint}.`);
    }
    let parsed: z.infer<typeof answerSchema>;
    try {
      parsed = answerSchema.parse(JSON.parse(response.body.toString('utf8')));
    } catch {
      throw new EmbeddingError(
        'invalid_answer',
        `The embeddings endpoint at ${host} did not answer with an OpenAI-style list of embeddings.`,
      );
    }
    const byIndex = new Map(parsed.data.map((d) => [d.index, d.embedding]));
    return texts.map((_, i) => {
      const vector = byIndex.get(i);
      if (!vector)
        throw new EmbeddingError(
          'invalid_answer',
          `The embeddings endpoint at ${host} answered ${parsed.data.length} embeddings for ${texts.length} texts.`,
        );
      dimensions ??= vector.length;
      if (vector.length !== dimensions)
        throw new EmbeddingError(
          'invalid_answer',
          `The embeddings endpoint at ${host} changed its vector length from ${dimensions} to ${vector.length}.`,
        );
      return normalise(Float32Array.from(vector));
    });
  };

  return {
    modelId: `${host}/${options.model}`,
    async embed(texts: readonly string[], kind: EmbeddingKind): Promise<Float32Array[]> {
      if (kind === 'query') return request(texts, options.queryTimeoutMs);
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize)
        out.push(...(await request(texts.slice(i, i + batchSize), options.batchTimeoutMs ?? DEFAULT_BATCH_TIMEOUT)));
      return out;
    },
    async close() {
      http.close();
    },
  };
}
