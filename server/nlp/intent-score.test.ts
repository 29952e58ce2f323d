import { describe, expect, it } from 'vitest';
import { EMBEDDED_SCORE, WORD_SCORE, intentScore } from './intent-score.ts';

/** The default nlpThreshold. */
const THRESHOLD = 0.7;

describe('intent score', () => {
  for (const [name, calibration] of [
    ['words', WORD_SCORE],
    ['words + embeddings', EMBEDDED_SCORE],
  ] as const) {
    it(`when a text is nowhere near an intent's examples (${name}), then it scores 0 however probable the intent is`, () => {
      expect(intentScore({ p: 0.99, pOther: 0.01, evidence: calibration.floor, examples: 10 }, calibration)).toBe(0);
      expect(intentScore({ p: 0.99, pOther: 0.01, evidence: 0, examples: 10 }, calibration)).toBe(0);
    });

    it(`when a text repeats an example of an intent that claims it alone (${name}), then it clears the default threshold`, () => {
      expect(intentScore({ p: 0.95, pOther: 0.01, evidence: 1.2, examples: 10 }, calibration)).toBeGreaterThanOrEqual(
        THRESHOLD,
      );
    });

    it(`when the evidence or the probability grows (${name}), then the score never falls`, () => {
      let last = 0;
      for (const evidence of [0.6, 0.8, 1, 1.5, 2, 3]) {
        const score = intentScore({ p: 0.6, pOther: 0.2, evidence, examples: 10 }, calibration);
        expect(score).toBeGreaterThanOrEqual(last);
        last = score;
      }
      last = 0;
      for (const p of [0.2, 0.4, 0.6, 0.8, 0.99]) {
        const score = intentScore({ p, pOther: Math.min(p, 1 - p) / 2, evidence: 1, examples: 10 }, calibration);
        expect(score).toBeGreaterThanOrEqual(last);
        last = score;
      }
    });
  }

  it('when a text sits between two intents (words), then it scores lower than one that one intent claims alone, at the same probability and evidence', () => {
    // With embeddings the margin added nothing on both sets in cross-validation, so it has no weight there.
    const between = intentScore({ p: 0.5, pOther: 0.45, evidence: 1, examples: 10 }, WORD_SCORE);
    const alone = intentScore({ p: 0.5, pOther: 0.05, evidence: 1, examples: 10 }, WORD_SCORE);
    expect(between).toBeLessThan(alone);
  });
});
