import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from '../../ports/embeddings.ts';
import { EmbeddingError } from '../../ports/embeddings.ts';
import { createFaqMatcher, prepareFaqMatcher } from '../faq-matcher.ts';
import { trainIntentClassifier } from '../intent-classifier.ts';
import { localOnnxEmbeddings } from './local-onnx.ts';
import { DEFAULT_MODEL_DIR } from './model-dir.ts';
import { dense } from './vectors.ts';

// The real small model, where `npm run provision` fetched it (scripts/provision-models.mjs).
const provisioned = existsSync(path.join(DEFAULT_MODEL_DIR, 'model.json'));
const CI = process.env.CI === 'true';
if (!provisioned && !CI)
  process.stderr.write(
    `\n!!! SKIPPED the local sentence encoder tests: no model in ${DEFAULT_MODEL_DIR} (npm run provision fetches it)\n\n`,
  );

describe('local sentence encoder', () => {
  it('when the model folder is missing, then loading fails with a sentence saying how to provide it', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'no-model-'));
    const error = await localOnnxEmbeddings({ dir: empty }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as Error).message).toMatch(/npm run provision.*EMBEDDINGS=off/);
    await rm(empty, { recursive: true, force: true });
  });

  describe.skipIf(!provisioned && !CI)('on the provisioned model', () => {
    let encoder: EmbeddingProvider;
    beforeAll(async () => {
      // Under CI=true a missing model fails here instead of skipping.
      encoder = await localOnnxEmbeddings({ dir: DEFAULT_MODEL_DIR, batchSize: 4 });
    });
    afterAll(() => encoder?.close());

    it('when texts are embedded, then each is a unit vector of 384 values and a rewording lands nearer than another topic', async () => {
      const [card, reworded, weather] = await encoder.embed(
        ['I lost my credit card', 'my card has gone missing', 'will it rain tomorrow'],
        'batch',
      );
      expect(card).toHaveLength(384);
      for (const v of [card, reworded, weather]) expect(dense(v!, v!)).toBeCloseTo(1, 4);
      expect(dense(card!, reworded!)).toBeGreaterThan(0.6);
      expect(dense(card!, reworded!)).toBeGreaterThan(dense(card!, weather!) + 0.3);
      expect(encoder.modelId).toBe('all-minilm-l6-v2-int8');
    });

    it('when texts of different lengths share a batch, then padding changes nothing: each vector equals the one embedded alone', async () => {
      const texts = [
        'hi',
        'how do I top up my card with a transfer from another bank account',
        'card declined',
        'exchange rate',
        'why was I charged twice for one payment',
      ];
      const together = await encoder.embed(texts, 'batch');
      for (const [i, text] of texts.entries()) {
        const [alone] = await encoder.embed([text], 'query');
        expect(dense(alone!, together[i]!)).toBeGreaterThan(0.9999);
      }
    });

    it('when a question shares no word with the stored one, then the FAQ answers it with embeddings and not on words alone', async () => {
      const pairs = [
        { id: 'fees', questions: ['How much does sending money abroad cost?'], answer: 'Free.' },
        { id: 'lost', questions: ['I lost my card'], answer: 'Call us.' },
        { id: 'hours', questions: ['When are you open?'], answer: 'Always.' },
      ];
      const question = 'what do you charge to send cash overseas';
      const words = await createFaqMatcher(pairs).match(question);
      const both = await (await prepareFaqMatcher(pairs, { embeddings: encoder })).match(question);
      expect(words.score).toBeLessThan(words.threshold);
      expect(both).toMatchObject({ id: 'fees' });
      expect(both.score).toBeGreaterThanOrEqual(both.threshold);
    });

    it('when intents are trained with embeddings, then a reworded request reaches its intent under the combined model id, and an unrelated one does not', async () => {
      const intents = [
        {
          id: 'lost_card',
          dialog: 'a',
          utterances: ['I lost my card', 'my card was stolen', 'I cannot find my debit card', 'someone took my card'],
        },
        {
          id: 'balance',
          dialog: 'b',
          utterances: ['what is my balance', 'how much money do I have', 'show my account balance', 'check my funds'],
        },
        {
          id: 'hours',
          dialog: 'c',
          utterances: ['when are you open', 'opening hours', 'are you open on sunday', 'what time do you close'],
        },
      ];
      const classifier = await trainIntentClassifier(intents, 'en', { embeddings: encoder });
      const reworded = await classifier.classify('my wallet with the bank card is gone');
      expect(reworded).toMatchObject({ intent: 'lost_card' });
      expect(reworded.score).toBeGreaterThanOrEqual(reworded.threshold);
      expect(reworded.modelId).toMatch(/^tfidf\+all-minilm-l6-v2-int8-[0-9a-f]{12}$/);
      const unrelated = await classifier.classify('the recipe needs two eggs and flour');
      expect(unrelated.score).toBeLessThan(unrelated.threshold);
    });

    it('when a text is longer than the model reads, then it is cut, not refused', async () => {
      const [long] = await encoder.embed(['please help '.repeat(400)], 'query');
      expect(dense(long!, long!)).toBeCloseTo(1, 4);
    });
  });
});
