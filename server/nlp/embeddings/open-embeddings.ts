import path from 'node:path';
import type { Config } from '../../config.ts';
import { cachedEmbeddings, type CachedEmbeddings } from './embedding-cache.ts';
import { httpEmbeddings, type EmbeddingHttpSender } from './http-embeddings.ts';
import { localOnnxEmbeddings } from './local-onnx.ts';
import { DEFAULT_MODEL_NAME } from './model-dir.ts';

export type EmbeddingSettings = Pick<
  Config,
  'EMBEDDINGS' | 'EMBEDDINGS_URL' | 'EMBEDDINGS_MODEL' | 'EMBEDDINGS_API_KEY' | 'EMBEDDINGS_TIMEOUT' | 'MODELS_DIR'
>;

export interface OpenEmbeddingsDeps {
  /** DATA_DIR: the embedding cache lives under it. */
  readonly dataDir: string;
  /** The guarded HTTP client for EMBEDDINGS=http (made only then). */
  readonly http: () => EmbeddingHttpSender;
  readonly warn: (message: string) => void;
}

/**
 * The embedding provider the configuration asks for, behind the cache; undefined for
 * EMBEDDINGS=off. A local model that is missing or cannot load throws EmbeddingError:
 * start-up stops, naming what to do, rather than running without what was asked for.
 */
export async function openEmbeddings(
  settings: EmbeddingSettings,
  deps: OpenEmbeddingsDeps,
): Promise<CachedEmbeddings | undefined> {
  if (settings.EMBEDDINGS === 'off') return undefined;
  const provider =
    settings.EMBEDDINGS === 'local'
      ? await localOnnxEmbeddings({
          dir: path.resolve(settings.MODELS_DIR, settings.EMBEDDINGS_MODEL ?? DEFAULT_MODEL_NAME),
        })
      : httpEmbeddings(
          {
            url: settings.EMBEDDINGS_URL as string,
            model: settings.EMBEDDINGS_MODEL as string,
            apiKey: settings.EMBEDDINGS_API_KEY,
            queryTimeoutMs: settings.EMBEDDINGS_TIMEOUT,
          },
          deps.http(),
        );
  return cachedEmbeddings(provider, { dir: deps.dataDir, warn: deps.warn });
}
