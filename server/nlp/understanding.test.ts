import { describe, expect, it } from 'vitest';
import { DEMO_BOT_DEFINITION } from '../config.ts';
import { loadDefinition } from '../definition/load.ts';
import { createFaqMatcher } from './fuse-faq-matcher.ts';
import { LABELLED_UTTERANCES } from './labelled-set.ts';
import { trainIntentClassifier } from './nlpjs-classifier.ts';

/** Share of the labelled set the demo bot routes right at its own threshold. */
async function demoAccuracy(): Promise<{ correct: number; total: number; misses: string[] }> {
  const definition = await loadDefinition(DEMO_BOT_DEFINITION);
  const classifier = await trainIntentClassifier(definition.intents, definition.settings.locale);
  let correct = 0;
  const misses: string[] = [];
  for (const [text, expected] of LABELLED_UTTERANCES) {
    const result = await classifier.classify(text);
    const routed = result.intent !== null && result.score >= definition.settings.nlpThreshold ? result.intent : null;
    if (routed === expected) correct++;
    else misses.push(`${JSON.stringify(text)}: expected ${expected ?? 'none'}, got ${routed ?? 'none'} (${result.intent ?? '-'} ${result.score})`);
  }
  return { correct, total: LABELLED_UTTERANCES.length, misses };
}

describe('intent classifier (NLP.js)', () => {
  it('when trained on the demo intents, then it routes at least 80 % of a held-out labelled set right', async () => {
    const { correct, total, misses } = await demoAccuracy();
    console.log(`intent accuracy on the labelled set: ${correct}/${total} = ${((100 * correct) / total).toFixed(1)} %${misses.length ? `\n  misses:\n  ${misses.join('\n  ')}` : ''}`);
    expect(correct / total).toBeGreaterThanOrEqual(0.8);
  });

  it('when a bot has no intents, then every text is classified as none', async () => {
    const classifier = await trainIntentClassifier([], 'en');
    expect(await classifier.classify('hello')).toMatchObject({ intent: null, score: 0 });
  });
});

describe('FAQ matcher (Fuse.js)', () => {
  const matcher = createFaqMatcher([
    { id: 'hours', questions: ['When are you open?', 'What are your opening hours?'], answer: 'Always.' },
    { id: 'price', questions: ['How much does delivery cost?'], answer: 'Free.' },
  ]);

  it('when a question is phrased a little differently or misspelt, then the right pair scores best', () => {
    expect(matcher.match('when r you open')).toMatchObject({ id: 'hours' });
    expect(matcher.match('opening hours?')).toMatchObject({ id: 'hours' });
    expect(matcher.match('how much is delivery')).toMatchObject({ id: 'price' });
    const exact = matcher.match('How much does delivery cost?');
    expect(exact.score).toBeGreaterThan(0.95);
  });

  it('when a question is unrelated, then nothing scores above the default threshold', () => {
    const result = matcher.match('quantum chromodynamics');
    expect(result.id === null || result.score < 0.6).toBe(true);
  });
});
