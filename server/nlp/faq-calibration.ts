import {
  calibrate,
  type Calibration,
  type CalibrationSamples,
  type CalibrationTargets,
  type ScoredSample,
} from './calibration.ts';

/**
 * The FAQ matcher's calibration at load (calibration.ts): its threshold is placed where the bot's
 * own stored questions, each asked with its whole entry left out, and the locale's off-topic
 * sentences are answered rarely enough. A stored question asked without its entry is a question
 * in the FAQ's own domain that the FAQ has no answer for, the hardest kind to turn away; an entry
 * with several stored questions also tells, each left out in turn, how often a rewording is
 * answered right. The scale stays the matcher's own (1 = an exact repeat): only the threshold moves.
 */
export interface FaqProbe {
  /** The matcher's best answer to stored question `index`, as if its whole entry (`entry`) or only that question (`question`) were absent. */
  stored(index: number, without: 'entry' | 'question'): { readonly id: string | null; readonly score: number };
  /** The matcher's best answer to an off-topic sentence (number `index` of the locale's list). */
  background(index: number): { readonly score: number };
}

export interface FaqCalibrationInput {
  /** Each stored question's entry id, in the matcher's order. */
  readonly entries: readonly string[];
  readonly backgroundCount: number;
  readonly probe: FaqProbe;
}

/**
 * Chosen on the training split of one public set and checked on the other's test split
 * (bench/nlp-understanding.ts): at most about 5 % of out-of-scope questions answered.
 */
export const FAQ_TARGETS: CalibrationTargets = {
  heldOutRefused: 0.95,
  backgroundRefused: 0.95,
  backgroundAloneRefused: 0.98,
  minRaw: 0.3,
  maxRaw: 0.95,
};
/** The fixed default of the matcher's own scale, kept when there is nothing to calibrate on (a lone entry). */
const FAQ_FALLBACK = 0.6;
/** Stored questions asked, at most: every one of them is matched against all the others. */
const MAX_ASKED = 400;

export function calibrateFaq(input: FaqCalibrationInput, targets: CalibrationTargets = FAQ_TARGETS): Calibration {
  return calibrate(faqSamples(input), targets, { rescale: false, fallback: FAQ_FALLBACK });
}

export function faqSamples({ entries, backgroundCount, probe }: FaqCalibrationInput): CalibrationSamples {
  const inScope: ScoredSample[] = [];
  const heldOut: number[] = [];
  const background: number[] = [];
  const distinct = new Set(entries).size;
  const perEntry = new Map<string, number>();
  for (const id of entries) perEntry.set(id, (perEntry.get(id) ?? 0) + 1);
  const every = Math.max(1, Math.ceil(entries.length / MAX_ASKED));
  entries.forEach((id, index) => {
    if (index % every !== 0) return;
    // With one entry, leaving it out leaves nothing to answer from.
    if (distinct >= 2) heldOut.push(probe.stored(index, 'entry').score);
    if ((perEntry.get(id) ?? 0) >= 2) {
      const answer = probe.stored(index, 'question');
      inScope.push({ score: answer.score, right: answer.id === id });
    }
  });
  for (let i = 0; i < backgroundCount; i++) background.push(probe.background(i).score);
  return { inScope, heldOut, background };
}
