import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const MAGIC = Buffer.from('EMBCACHE');
const VERSION = 1;
const HASH = 32;

/**
 * The embedding cache's file: read on first use (an unreadable file is warned about and rebuilt), written whole,
 * one write at a time, keeping the `maxEntries` most recently used entries (a Map's last entries).
 */
export class EmbeddingCacheFile {
  private entries: Map<string, Float32Array> | undefined;
  /** The vectors' length; 0 before the first is known. */
  dimensions = 0;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly modelId: string,
    private readonly maxEntries: number,
    private readonly warn?: (message: string) => void,
  ) {}

  /** Text hashes to their vectors, least recently used first. */
  load(): Map<string, Float32Array> {
    if (this.entries) return this.entries;
    this.entries = new Map();
    if (!existsSync(this.file)) return this.entries;
    try {
      const read = readCacheFile(readFileSync(this.file), this.modelId);
      this.entries = read.entries;
      this.dimensions = read.dimensions;
    } catch (error) {
      this.warn?.(`the embedding cache ${this.file} is unreadable (${(error as Error).message}); it is rebuilt`);
    }
    return this.entries;
  }

  save(): Promise<void> {
    // One write at a time, each of the whole map: the last one holds everything.
    this.saving = this.saving.then(() => {
      const kept = [...this.load()].slice(-this.maxEntries);
      try {
        mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
        const temporary = `${this.file}.${process.pid}.tmp`;
        writeFileSync(temporary, writeCacheFile(this.modelId, this.dimensions, kept), { mode: 0o600 });
        renameSync(temporary, this.file);
      } catch (error) {
        this.warn?.(
          `the embedding cache ${this.file} could not be written (${(error as Error).message}); the next start encodes again`,
        );
      }
    });
    return this.saving;
  }

  /** Waits for the writes under way. */
  settled(): Promise<void> {
    return this.saving;
  }
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
