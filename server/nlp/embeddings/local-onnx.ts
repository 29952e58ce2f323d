import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { EmbeddingError, type EmbeddingKind, type EmbeddingProvider } from '../../ports/embeddings.ts';
import { normalise } from './vectors.ts';

/**
 * A MiniLM-class sentence encoder run in process on the CPU with onnxruntime-node:
 * the model folder (written by `npm run provision`, scripts/provision-models.mjs) holds
 * `model.onnx`, the BERT `tokenizer.json`, a `model.json` saying how to run it, and
 * the licence and attribution. Mean pooling over the tokens, then L2 normalisation,
 * as sentence-transformers does for these models.
 *
 * onnxruntime-node and @huggingface/tokenizers are loaded only when this adapter is
 * chosen (EMBEDDINGS=local): a server on words alone never loads a native module.
 */
export const modelManifestSchema = z.object({
  /** Short, stable name: the cache key and nlpLog's modelId carry it. */
  name: z.string().regex(/^[a-z0-9][a-z0-9.-]{0,63}$/),
  file: z.string().min(1),
  /** The ONNX output holding one vector per token. */
  output: z.string().min(1),
  /** BERT exports differ in whether they take token_type_ids. */
  tokenTypeIds: z.boolean(),
  dimensions: z.number().int().positive(),
  /** Longer texts are cut: intent phrasings and questions are short, and cost grows with length. */
  maxTokens: z.number().int().min(8).max(512),
});
export type ModelManifest = z.infer<typeof modelManifestSchema>;

export interface LocalOnnxOptions {
  /** The model's folder, e.g. .cache/models/all-minilm-l6-v2-int8. */
  readonly dir: string;
  /** Texts per run when embedding training data. */
  readonly batchSize?: number;
}

const DEFAULT_BATCH = 32;

/** Loads the model; throws EmbeddingError naming what is missing and how to provide it. */
export async function localOnnxEmbeddings(options: LocalOnnxOptions): Promise<EmbeddingProvider> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  let manifest: ModelManifest;
  let tokenizerJson: unknown;
  let tokenizerConfig: unknown;
  try {
    manifest = modelManifestSchema.parse(JSON.parse(await readFile(path.join(options.dir, 'model.json'), 'utf8')));
    tokenizerJson = JSON.parse(await readFile(path.join(options.dir, 'tokenizer.json'), 'utf8'));
    tokenizerConfig = JSON.parse(await readFile(path.join(options.dir, 'tokenizer_config.json'), 'utf8'));
  } catch (error) {
    throw new EmbeddingError(
      'unavailable',
      `No usable sentence encoder in ${options.dir} (${(error as Error).message.split('\n')[0]}); run \`npm run provision\` to fetch it, or set EMBEDDINGS=off.`,
    );
  }
  let ort: typeof import('onnxruntime-node');
  let Tokenizer: typeof import('@huggingface/tokenizers').Tokenizer;
  try {
    ort = await import('onnxruntime-node');
    ({ Tokenizer } = await import('@huggingface/tokenizers'));
  } catch (error) {
    throw new EmbeddingError(
      'unavailable',
      `EMBEDDINGS=local needs the packages onnxruntime-node and @huggingface/tokenizers (${(error as Error).message.split('\n')[0]}); install them (README, "Sentence embeddings") or set EMBEDDINGS=off.`,
    );
  }
  const tokenizer = new Tokenizer(tokenizerJson as object, tokenizerConfig as object);
  const session = await ort.InferenceSession.create(path.join(options.dir, manifest.file), {
    // One thread: a 2-core server runs turns side by side, and a short sentence gains nothing from more.
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const { dimensions, maxTokens } = manifest;

  const run = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const encoded = texts.map((text): number[] => {
      const ids: number[] = tokenizer.encode(text.slice(0, maxTokens * 8)).ids;
      // Cut to the model's length, keeping the closing [SEP].
      return ids.length <= maxTokens ? ids : [...ids.slice(0, maxTokens - 1), ids[ids.length - 1] as number];
    });
    const length = Math.max(...encoded.map((ids) => ids.length));
    const n = texts.length;
    const inputIds = new BigInt64Array(n * length);
    const mask = new BigInt64Array(n * length);
    encoded.forEach((ids, row) => {
      ids.forEach((id, column) => {
        inputIds[row * length + column] = BigInt(id);
        mask[row * length + column] = 1n;
      });
    });
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {
      input_ids: new ort.Tensor('int64', inputIds, [n, length]),
      attention_mask: new ort.Tensor('int64', mask, [n, length]),
    };
    if (manifest.tokenTypeIds)
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * length), [n, length]);
    const result = await session.run(feeds);
    const output = result[manifest.output];
    if (!output || output.dims.length !== 3 || output.dims[2] !== dimensions) {
      throw new EmbeddingError(
        'invalid_answer',
        `The model in ${options.dir} has no output "${manifest.output}" of ${dimensions} values per token; its model.json does not fit it.`,
      );
    }
    const data = output.data as Float32Array;
    return encoded.map((ids, row) => {
      const vector = new Float32Array(dimensions);
      for (let t = 0; t < ids.length; t++) {
        const at = (row * length + t) * dimensions;
        for (let k = 0; k < dimensions; k++) vector[k] = (vector[k] as number) + (data[at + k] as number);
      }
      return normalise(vector);
    });
  };

  return {
    modelId: manifest.name,
    async embed(texts: readonly string[], kind: EmbeddingKind): Promise<Float32Array[]> {
      if (kind === 'query' || texts.length <= batchSize) return run(texts);
      // Similar lengths batch together: padding costs as much as text.
      const order = texts.map((_, i) => i).sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
      const out = new Array<Float32Array>(texts.length);
      for (let i = 0; i < order.length; i += batchSize) {
        const slice = order.slice(i, i + batchSize);
        const vectors = await run(slice.map((j) => texts[j] as string));
        slice.forEach((j, k) => (out[j] = vectors[k] as Float32Array));
      }
      return out;
    },
    async close() {
      await session.release();
    },
  };
}
