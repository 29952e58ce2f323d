import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EmbeddingKind, EmbeddingProvider } from '../../ports/embeddings.ts';

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

const MAGIC = Buffer.from('EMBCACHE');
const VERSION = 1;
const HASH = 32;
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
  let entries: Map<string, Float32Array> | undefined;
  let dimensions = 0;
  let encoded = 0;
  let saving: Promise<void> = Promise.resolve();
  const queries = new Map<string, Promise<Float32Array>>();

  const load = (): Map<string, Float32Array> => {
    if (entries) return entries;
    entries = new Map();
    if (!existsSync(file)) return entries;
    try {
      const read = readCacheFile(readFileSync(file), provider.modelId);
      entries = read.entries;
      dimensions = read.dimensions;
    } catch (error) {
      options.warn?.(`the embedding cache ${file} is unreadable (${(error as Error).message}); it is rebuilt`);
    }
    return entries;
  };

  const save = (): Promise<void> => {
    // One write at a time, each of the whole map: the last one holds everything.
    saving = saving.then(() => {
      const all = load();
      const kept = [...all].slice(-maxEntries);
      try {
        mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, writeCacheFile(provider.modelId, dimensions, kept), { mode: 0o600 });
        renameSync(temporary, file);
      } catch (error) {
        options.warn?.(
          `the embedding cache ${file} could not be written (${(error as Error).message}); the next start encodes again`,
        );
      }
    });
    return saving;
  };

  const batch = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const all = load();
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
        if (dimensions !== vector.length) {
          // Another length than the file's: the model behind the id changed; the old entries are of no use.
          if (dimensions !== 0) all.clear();
          dimensions = vector.length;
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
    if (missing.length > 0) await save();
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
      await saving;
      await provider.close();
    },
  };
  homes.set(cached, { dir: options.dir, warn: options.warn });
  return cached;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/** Layout: magic, version, dimensions, count, model id (length + UTF-8), then per entry the text's SHA-256 and its floats. */
function writeCacheFile(modelId: string, dimensions: number, kept: readonly [string, Float32Array][]): Buffer {
  const id = Buffer.from(modelId, 'utf8');
  const head = Buffer.alloc(MAGIC.length + 16);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(VERSION, 8);
  head.writeUInt32LE(dimensions, 12);
  head.writeUInt32LE(kept.length, 16);
  head.writeUInt32LE(id.length, 20);
  const body = Buffer.alloc(kept.length * (HASH + dimensions * 4));
  let at = 0;
  for (const [key, vector] of kept) {
    Buffer.from(key, 'base64').copy(body, at);
    at += HASH;
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(body, at);
    at += dimensions * 4;
  }
  return Buffer.concat([head, id, body]);
}

function readCacheFile(data: Buffer, modelId: string): { entries: Map<string, Float32Array>; dimensions: number } {
  if (data.length < 24 || !data.subarray(0, 8).equals(MAGIC) || data.readUInt32LE(8) !== VERSION)
    throw new Error('not an embedding cache of this version');
  const dimensions = data.readUInt32LE(12);
  const count = data.readUInt32LE(16);
  const idLength = data.readUInt32LE(20);
  if (data.subarray(24, 24 + idLength).toString('utf8') !== modelId) throw new Error('written for another model');
  const size = HASH + dimensions * 4;
  let at = 24 + idLength;
  if (dimensions === 0 || data.length !== at + count * size) throw new Error('truncated');
  const entries = new Map<string, Float32Array>();
  for (let i = 0; i < count; i++, at += size) {
    const floats = new Float32Array(dimensions);
    Buffer.from(floats.buffer).set(data.subarray(at + HASH, at + size));
    entries.set(data.subarray(at, at + HASH).toString('base64'), floats);
  }
  return { entries, dimensions };
}
