import { createHash } from 'node:crypto';
import { z } from 'zod';
import { json, startUpstream, type Upstream } from '../../../integrations/test/upstream.ts';

/**
 * A stand-in for an OpenAI-compatible embeddings endpoint on a loopback port. It checks
 * each request against the published reference of `POST /v1/embeddings` (JSON body with
 * `model` and `input`, a string or an array of strings; optional `encoding_format`
 * "float" | "base64", `dimensions`, `user`) and answers in its shape
 * (`{object: "list", data: [{object: "embedding", index, embedding}], model, usage}`).
 * Its vectors are hashed bags of words: texts sharing words are close, which is all the
 * tests need. It counts every text it was asked to embed.
 */
export interface EmbeddingsServer {
  readonly url: string;
  readonly host: string;
  /** Every text embedded, in order, over all requests. */
  readonly texts: string[];
  readonly upstream: Upstream;
  /** Answers after this many ms from now on. */
  delay(ms: number): void;
  /** Answers this status (with an OpenAI-style error body) from now on; 200 to recover. */
  fail(status: number): void;
  close(): Promise<void>;
}

const requestSchema = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(z.string()).min(1).max(2048)]),
    encoding_format: z.enum(['float', 'base64']).optional(),
    dimensions: z.number().int().positive().optional(),
    user: z.string().optional(),
  })
  .strict();

export const DIMENSIONS = 64;

export function bagOfWords(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? ['∅']) {
    const h = createHash('sha256').update(word).digest();
    v[(h[0] as number) % DIMENSIONS] = (v[(h[0] as number) % DIMENSIONS] as number) + 1;
    v[(h[1] as number) % DIMENSIONS] = (v[(h[1] as number) % DIMENSIONS] as number) + 0.5;
  }
  return v;
}

export async function startEmbeddingsServer(options: { apiKey?: string } = {}): Promise<EmbeddingsServer> {
  const texts: string[] = [];
  let delayMs = 0;
  let status = 200;
  const upstream = await startUpstream(async (req, res) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return json(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return json(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    if (status !== 200) return json(res, status, { error: { message: 'unavailable', type: 'server_error' } });
    if (!String(req.headers['content-type']).startsWith('application/json'))
      return json(res, 415, { error: { message: 'JSON only' } });
    const parsed = requestSchema.safeParse(JSON.parse(req.body));
    if (!parsed.success)
      return json(res, 400, { error: { message: parsed.error.message, type: 'invalid_request_error' } });
    const inputs = typeof parsed.data.input === 'string' ? [parsed.data.input] : parsed.data.input;
    texts.push(...inputs);
    json(res, 200, {
      object: 'list',
      data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: bagOfWords(text) })),
      model: parsed.data.model,
      usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
    });
  });
  return {
    url: `${upstream.url}/v1/embeddings`,
    host: `127.0.0.1:${upstream.port}`,
    texts,
    upstream,
    delay: (ms) => {
      delayMs = ms;
    },
    fail: (code) => {
      status = code;
    },
    close: () => upstream.close(),
  };
}
