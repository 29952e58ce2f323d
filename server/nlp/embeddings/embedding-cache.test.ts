import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from '../../ports/embeddings.ts';
import { trainIntentClassifier } from '../intent-classifier.ts';
import { cachedEmbeddings } from './embedding-cache.ts';
import { normalise } from './vectors.ts';

/** An encoder that records what it was asked: a text's vector is its character codes, folded into 8 values. */
function recordingEncoder(modelId = 'test-encoder'): EmbeddingProvider & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    modelId,
    calls,
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((text) => {
        const v = new Float32Array(8);
        for (let i = 0; i < text.length; i++) v[i % 8] = (v[i % 8] as number) + text.charCodeAt(i);
        return normalise(v);
      });
    },
    async close() {},
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'embedding-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const texts = ['where is my order', 'cancel my order', 'opening hours'];

describe('embedding cache', () => {
  it('when a second start embeds the same texts, then the encoder is asked for none of them and the vectors are the same', async () => {
    const first = recordingEncoder();
    const a = await cachedEmbeddings(first, { dir }).embed(texts, 'batch');
    expect(first.calls).toEqual([texts]);
    const second = recordingEncoder();
    const cache = cachedEmbeddings(second, { dir });
    const b = await cache.embed(texts, 'batch');
    expect(second.calls).toEqual([]);
    expect(cache.encoded).toBe(0);
    expect(b.map((v) => [...v])).toEqual(a.map((v) => [...v]));
  });

  it('when one utterance changed, then only that one is encoded', async () => {
    await cachedEmbeddings(recordingEncoder(), { dir }).embed(texts, 'batch');
    const encoder = recordingEncoder();
    const cache = cachedEmbeddings(encoder, { dir });
    await cache.embed(['where is my order', 'cancel my purchase', 'opening hours'], 'batch');
    expect(encoder.calls).toEqual([['cancel my purchase']]);
    expect(cache.encoded).toBe(1);
  });

  it('when the model changes, then nothing of the other model is reused', async () => {
    await cachedEmbeddings(recordingEncoder('model-a'), { dir }).embed(texts, 'batch');
    const other = recordingEncoder('model-b');
    await cachedEmbeddings(other, { dir }).embed(texts, 'batch');
    expect(other.calls).toEqual([texts]);
    expect(await readdir(path.join(dir, 'embeddings'))).toHaveLength(2);
  });

  it('when the cache file is damaged, then it is reported, rebuilt, and the texts are encoded again', async () => {
    await cachedEmbeddings(recordingEncoder(), { dir }).embed(texts, 'batch');
    const [file] = await readdir(path.join(dir, 'embeddings'));
    const full = path.join(dir, 'embeddings', file as string);
    await writeFile(full, (await readFile(full)).subarray(0, 100));
    const warnings: string[] = [];
    const encoder = recordingEncoder();
    await cachedEmbeddings(encoder, { dir, warn: (m) => warnings.push(m) }).embed(texts, 'batch');
    expect(warnings.join()).toMatch(/unreadable \(truncated\); it is rebuilt/);
    expect(encoder.calls).toEqual([texts]);
    const again = recordingEncoder();
    await cachedEmbeddings(again, { dir }).embed(texts, 'batch');
    expect(again.calls).toEqual([]);
  });

  it("when a user's text is embedded for a turn, then it is never written to the cache file, and a repeat in the same turn is encoded once", async () => {
    const encoder = recordingEncoder();
    const cache = cachedEmbeddings(encoder, { dir });
    await cache.embed(texts, 'batch');
    const before = await readFile(
      path.join(dir, 'embeddings', (await readdir(path.join(dir, 'embeddings')))[0] as string),
    );
    const [a] = await cache.embed(['my card number is 4111 1111'], 'query');
    const [b] = await cache.embed(['my card number is 4111 1111'], 'query');
    expect(a).toBe(b);
    expect(encoder.calls.filter((c) => c[0] === 'my card number is 4111 1111')).toHaveLength(1);
    await cache.close();
    const after = await readFile(
      path.join(dir, 'embeddings', (await readdir(path.join(dir, 'embeddings')))[0] as string),
    );
    expect(after.equals(before)).toBe(true);
  });

  it('when there are more entries than the cap, then the least recently used are dropped from the file', async () => {
    const cache = cachedEmbeddings(recordingEncoder(), { dir, maxEntries: 2 });
    await cache.embed(['one', 'two'], 'batch');
    await cache.embed(['three', 'one'], 'batch');
    const encoder = recordingEncoder();
    await cachedEmbeddings(encoder, { dir }).embed(['one', 'two', 'three'], 'batch');
    expect(encoder.calls).toEqual([['two']]);
  });
});

describe('calibration kept beside the embedding cache', () => {
  const intents = ['order', 'refund', 'hours'].map((id) => ({
    id,
    dialog: id,
    utterances: Array.from({ length: 8 }, (_, i) => `${id} question number ${i} about my ${id}`),
  }));

  it('when a bot with embeddings starts again on the same data folder, then it reads its calibration from the file instead of calibrating', async () => {
    const first = await trainIntentClassifier(intents, 'en', {
      embeddings: cachedEmbeddings(recordingEncoder(), { dir }),
    });
    const [file] = await readdir(path.join(dir, 'calibrations'));
    expect(JSON.parse(await readFile(path.join(dir, 'calibrations', file as string), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(first.calibration)),
    );
    // A kept calibration marked, so reading it shows; another model id (same vectors) so the process's own memo misses.
    const kept = { ...first.calibration, words: { ...first.calibration.words, threshold: 0.4242 } };
    await writeFile(path.join(dir, 'calibrations', file as string), JSON.stringify(kept));
    const again = await trainIntentClassifier(intents, 'en', {
      embeddings: cachedEmbeddings(recordingEncoder('test-encoder-restarted'), { dir }),
    });
    expect(again.calibration.words.threshold).toBe(0.4242);
  });

  it('when the kept file is damaged, then the bot calibrates again and the warning names the file', async () => {
    const warnings: string[] = [];
    const first = await trainIntentClassifier(intents, 'de', {
      embeddings: cachedEmbeddings(recordingEncoder(), { dir }),
    });
    const [file] = await readdir(path.join(dir, 'calibrations'));
    await writeFile(path.join(dir, 'calibrations', file as string), '{"words":');
    const again = await trainIntentClassifier(intents, 'de', {
      embeddings: cachedEmbeddings(recordingEncoder('test-encoder-restarted'), { dir, warn: (m) => warnings.push(m) }),
    });
    expect(again.calibration).toEqual(first.calibration);
    expect(warnings.join('\n')).toContain(file);
  });
});
