import { createHash } from 'node:crypto';
import path from 'node:path';
import type { EmbeddingKind, EmbeddingProvider } from '../../ports/embeddings.ts';
import { EmbeddingCacheFile } from './embedding-cache-file.ts';

/**
 * Keeps the embeddings of training texts (intent utterances, FAQ phrasings) in a file
 * under DATA_DIR, keyed by the model and the SHA-256 of each text, so a start or a
 * reload sends the encoder only the texts it has not seen. One file per model:
 * `embeddings/<hash of modelId>.bin`. A user's text in a turn is never written there
 * (it is personal data); the last few stay in memory, so the classifier and the FAQ
 * matcher of one turn share one encoding.
 */
export interface EmbeddingCacheOptions {
  /** DATA_DIR: the file goes under its `embeddings/` folder. */
  readonly dir: string;
  /** Most entries kept in the file; the least recently used go first. */
  readonly maxEntries?: number;
  /** Told when the file is unreadable (it is then rebuilt) or cannot be written. */
  readonly warn?: (message: string) => void;
}

export interface CachedEmbeddings extends EmbeddingProvider {
  /** Texts handed to the encoder since this cache was made (a warm start hands none). */
  readonly encoded: number;
}

const DEFAULT_MAX = 20_000;
const QUERIES_KEPT = 32;

/** Each cached provider's home: the DATA_DIR its cache lives in, and where it warns. */
const homes = new WeakMap<EmbeddingProvider, CacheHome>();

/** Where a cached provider keeps its files; what is computed from its embeddings can live there too (calibration-store.ts). */
export interface CacheHome {
  readonly dir: string;
  readonly warn?: (message: string) => void;
}

/** The home of a provider made by cachedEmbeddings; none for a provider without a cache. */
export function cacheHomeOf(provider: EmbeddingProvider): CacheHome | undefined {
  return homes.get(provider);
}

export function cachedEmbeddings(provider: EmbeddingProvider, options: EmbeddingCacheOptions): CachedEmbeddings {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX;
  const file = path.join(
    options.dir,
    'embeddings',
    `${createHash('sha256').update(provider.modelId).digest('hex').slice(0, 24)}.bin`,
  );
  const cache = new EmbeddingCacheFile(file, provider.modelId, maxEntries, options.warn);
  let encoded = 0;
  const queries = new Map<string, Promise<Float32Array>>();

  const batch = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const all = cache.load();
    const keys = texts.map(hashOf);
    const missing = [
      ...new Set(
        keys
          .map((key, i) => (all.has(key) ? -1 : i))
          .filter((i) => i >= 0)
          .map((i) => texts[i] as string),
      ),
    ];
    if (missing.length > 0) {
      const vectors = await provider.embed(missing, 'batch');
      encoded += missing.length;
      missing.forEach((text, i) => {
        const vector = vectors[i] as Float32Array;
        if (cache.dimensions !== vector.length) {
          // Another length than the file's: the model behind the id changed; the old entries are of no use.
          if (cache.dimensions !== 0) all.clear();
          cache.dimensions = vector.length;
        }
        all.set(hashOf(text), vector);
      });
    }
    const out = keys.map((key) => {
      const vector = all.get(key) as Float32Array;
      // Recently used last, so the file keeps what the definition in service uses.
      all.delete(key);
      all.set(key, vector);
      return vector;
    });
    // A warm start writes nothing; the order of use is saved with the next new text.
    if (missing.length > 0) await cache.save();
    return out;
  };

  const cached: CachedEmbeddings = {
    modelId: provider.modelId,
    get encoded() {
      return encoded;
    },
    async embed(texts: readonly string[], kind: EmbeddingKind): Promise<Float32Array[]> {
      if (kind === 'batch') return batch(texts);
      return Promise.all(
        texts.map((text) => {
          let pending = queries.get(text);
          if (!pending) {
            pending = provider.embed([text], 'query').then((v) => {
              encoded++;
              return v[0] as Float32Array;
            });
            // A failed encoding is not remembered: the next turn tries again.
            pending.catch(() => queries.delete(text));
            queries.set(text, pending);
            if (queries.size > QUERIES_KEPT) queries.delete(queries.keys().next().value as string);
          }
          return pending;
        }),
      );
    },
    async close() {
      await cache.settled();
      await provider.close();
    },
  };
  homes.set(cached, { dir: options.dir, warn: options.warn });
  return cached;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
