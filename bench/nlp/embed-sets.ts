// Sentence embeddings of the public sets' texts for the benchmarks and the tuning runs, through
// the product's own local encoder and embedding cache (kept in .cache/bench-embeddings, so only
// the first run pays for encoding). Null when no encoder is provisioned.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmbeddingProvider } from '../../server/ports/embeddings.ts';
import { cachedEmbeddings, type CachedEmbeddings } from '../../server/nlp/embeddings/embedding-cache.ts';
import { localOnnxEmbeddings } from '../../server/nlp/embeddings/local-onnx.ts';
import { DEFAULT_MODEL_DIR } from '../../server/nlp/embeddings/model-dir.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH_CACHE = path.join(root, '.cache', 'bench-embeddings');

/** The local encoder behind the benchmark cache, or the reason there is none. */
export async function benchEncoder(
  dir = DEFAULT_MODEL_DIR,
): Promise<{ provider: CachedEmbeddings; raw: EmbeddingProvider } | { reason: string }> {
  try {
    const raw = await localOnnxEmbeddings({ dir });
    return { provider: cachedEmbeddings(raw, { dir: BENCH_CACHE, maxEntries: 100_000 }), raw };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

/** Embeddings of many texts, keyed by text. */
export async function embedAll(
  provider: EmbeddingProvider,
  texts: readonly string[],
): Promise<Map<string, Float32Array>> {
  const unique = [...new Set(texts)];
  const vectors = await provider.embed(unique, 'batch');
  return new Map(unique.map((t, i) => [t, vectors[i] as Float32Array]));
}
