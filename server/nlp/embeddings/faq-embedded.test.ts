import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from '../../ports/embeddings.ts';
import { prepareFaqMatcher } from '../faq-matcher.ts';
import { localOnnxEmbeddings } from './local-onnx.ts';
import { DEFAULT_MODEL_DIR } from './model-dir.ts';

// The FAQ score with sentence embeddings, on the real small model where `npm run provision` fetched it.
const provisioned = existsSync(path.join(DEFAULT_MODEL_DIR, 'model.json'));
const CI = process.env.CI === 'true';
if (!provisioned && !CI)
  process.stderr.write(
    `\n!!! SKIPPED the FAQ tests with embeddings: no model in ${DEFAULT_MODEL_DIR} (npm run provision fetches it)\n\n`,
  );

/** A bank's FAQ with one stored question per pair, as an author would write it. */
const BANK = [
  { id: 'lost_card', questions: ['I lost my card, what should I do?'] },
  { id: 'card_arrival', questions: ['When will my new card arrive?'] },
  { id: 'exchange_rate', questions: ['What exchange rate do you use?'] },
  { id: 'top_up_failed', questions: ['Why did my top-up fail?'] },
  { id: 'change_pin', questions: ['How do I change my PIN?'] },
  { id: 'transfer_fee', questions: ['Is there a fee for bank transfers?'] },
  { id: 'cash_withdrawal_limit', questions: ['How much cash can I withdraw from an ATM?'] },
  { id: 'close_account', questions: ['How can I close my account?'] },
  { id: 'verify_identity', questions: ['Why do I need to verify my identity?'] },
  { id: 'declined_payment', questions: ['Why was my card payment declined?'] },
  { id: 'refund_pending', questions: ['My refund has not shown up yet'] },
  { id: 'apple_pay', questions: ['Can I use Apple Pay?'] },
].map((p) => ({ ...p, answer: p.id }));

describe.skipIf(!provisioned && !CI)('FAQ matcher with sentence embeddings', () => {
  let encoder: EmbeddingProvider;
  beforeAll(async () => {
    // Under CI=true a missing model fails here instead of skipping.
    encoder = await localOnnxEmbeddings({ dir: DEFAULT_MODEL_DIR, batchSize: 8 });
  });
  afterAll(() => encoder?.close());

  const answered = async (pairs: typeof BANK, text: string): Promise<string | null> => {
    const m = await (await prepareFaqMatcher(pairs, { embeddings: encoder })).match(text);
    return m.score >= m.threshold ? m.id : null;
  };

  it('when a stored question is asked in other words, then its pair answers at the threshold the matcher calibrated', async () => {
    const matcher = await prepareFaqMatcher(BANK, { embeddings: encoder });
    for (const [text, id] of [
      ['my card is gone, I cannot find it anywhere', 'lost_card'],
      ['when does my new card come', 'card_arrival'],
      ['is apple pay supported', 'apple_pay'],
      ['how much money can I take out at a cash machine', 'cash_withdrawal_limit'],
      ['I still have not received my refund', 'refund_pending'],
      ['I want to set a new pin number', 'change_pin'],
      ['do you charge anything to send money to another bank', 'transfer_fee'],
      ['the shop refused my card, why', 'declined_payment'],
    ] as const) {
      const m = await matcher.match(text);
      expect(m.id, text).toBe(id);
      expect(m.score, text).toBeGreaterThanOrEqual(m.threshold);
    }
  });

  it('when a question is about something the FAQ does not cover, then nothing answers', async () => {
    const matcher = await prepareFaqMatcher(BANK, { embeddings: encoder });
    for (const text of [
      'will it rain in Paris tomorrow',
      'recommend me a good pizza place',
      'play some jazz music',
      'how is my driving',
    ]) {
      const m = await matcher.match(text);
      expect(m.score, text).toBeLessThan(m.threshold);
    }
  });

  it('when the FAQ has a single pair, then an unrelated question still gets no answer and a rewording does', async () => {
    const one = [{ id: 'hours', questions: ['When are you open?'], answer: 'Nine to five.' }];
    expect(await answered(one, 'what time do you open in the morning')).toBe('hours');
    expect(await answered(one, 'my parcel never arrived')).toBeNull();
    expect(await answered(one, 'tell me a joke about cats')).toBeNull();
  });

  it('when a question has nothing in common with any pair, then no pair is named at all (the studio suggests none)', async () => {
    const matcher = await prepareFaqMatcher(BANK.slice(0, 3), { embeddings: encoder });
    expect(await matcher.match('tell me a joke about cats')).toMatchObject({ id: null, score: 0, others: [] });
  });

  it('when a question sits between two pairs that say nearly the same, then it is less sure than with one of them alone', async () => {
    const text = 'my card payment did not go through';
    const alone = await (await prepareFaqMatcher(BANK, { embeddings: encoder })).match(text);
    const twin = [
      ...BANK,
      { id: 'card_payment_rejected', questions: ['Why was my card payment rejected?'], answer: 'Twin.' },
    ];
    const between = await (await prepareFaqMatcher(twin, { embeddings: encoder })).match(text);
    expect(alone.id).toBe('declined_payment');
    expect(['declined_payment', 'card_payment_rejected']).toContain(between.id);
    expect(between.score).toBeLessThan(alone.score);
  });

  it('when a stored question is repeated word for word, then it scores 1', async () => {
    const matcher = await prepareFaqMatcher(BANK, { embeddings: encoder });
    expect(await matcher.match('How do I change my PIN?')).toMatchObject({ id: 'change_pin', score: 1 });
  });
});
