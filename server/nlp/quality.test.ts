import { describe, expect, it } from 'vitest';
import { DEMO_BOT_DEFINITION } from '../config.ts';
import { loadDefinition } from '../definition/load.ts';
import type { Intent } from '../definition/schema.ts';
import { trainIntentClassifier } from './intent-classifier.ts';
import { formatIntentQuality, reportIntentQuality } from './quality.ts';

const settings = { locale: 'en', nlpThreshold: 0.7 } as const;
const intent = (id: string, utterances: string[]): Intent => ({ id, dialog: id, utterances });

describe('intent quality report', () => {
  it('when two intents share their phrasings, then they are named as confusable and the accuracy drops', () => {
    const distinct = [
      intent('track', [
        'where is my order',
        'track my parcel',
        'has my package shipped',
        'when does my delivery arrive',
        'order not arrived yet',
        'shipment status',
      ]),
      intent('hours', [
        'when are you open',
        'opening hours',
        'are you open on sunday',
        'what time do you close',
        'opening times please',
        'is the shop open today',
      ]),
      intent('refund', [
        'I want my money back',
        'refund my purchase',
        'how do I get a refund',
        'return money to my card',
        'refund please',
        'money back for the broken item',
      ]),
    ];
    const clean = reportIntentQuality({ settings, intents: distinct });
    const muddled = reportIntentQuality({
      settings,
      intents: [
        ...distinct,
        intent('delivery', [
          'where is my delivery',
          'track my order',
          'has my parcel shipped',
          'when does my package arrive',
          'delivery not arrived yet',
          'status of my order',
        ]),
      ],
    });
    expect(clean.folds).toBe(5);
    expect(clean.accuracy).toBeGreaterThan(muddled.accuracy ?? 1);
    expect(clean.confusable).toEqual([]);
    expect(muddled.confusable[0]?.intents).toEqual(['delivery', 'track']);
    expect(formatIntentQuality(muddled)).toMatch(/Intents "delivery" and "track" are confused \d+ times/);
  });

  it('when the demo bot is checked, then it gets an accuracy and names its thin intents', async () => {
    const definition = await loadDefinition(DEMO_BOT_DEFINITION);
    const report = reportIntentQuality(definition);
    expect(report.intents).toBe(definition.intents.length);
    expect(report.accuracy).not.toBeNull();
    expect(report.accuracyAtThreshold).toBeLessThanOrEqual(report.accuracy as number);
    for (const id of report.thinIntents)
      expect(definition.intents.find((i) => i.id === id)?.utterances.length).toBeLessThan(5);
  });

  it('when a bot has one intent, then the report says there is too little to cross-validate instead of inventing a figure', () => {
    const report = reportIntentQuality({ settings, intents: [intent('only', ['hello'])] });
    expect(report).toMatchObject({ accuracy: null, folds: 0, thinIntents: ['only'] });
    expect(report.findings.join(' ')).toMatch(/Too few intents or utterances/);
  });

  it('when a bot has several intents and sets no nlpThreshold, then the report shows the threshold its classifier calibrated at load, which the bot uses, with the expected rates', async () => {
    const definition = await loadDefinition(DEMO_BOT_DEFINITION);
    const report = reportIntentQuality({
      intents: definition.intents,
      settings: { locale: definition.settings.locale },
    });
    const classifier = await trainIntentClassifier(definition.intents, definition.settings.locale);
    expect(report.suggestedThreshold).toBe(classifier.calibration.words.threshold);
    expect(report).toMatchObject({ threshold: report.suggestedThreshold, thresholdSource: 'calibrated' });
    const { routedRight, outOfScopeRecall } = report.atSuggested ?? { routedRight: -1, outOfScopeRecall: -1 };
    expect(routedRight).toBeGreaterThan(0.2);
    expect(outOfScopeRecall).toBeGreaterThanOrEqual(0.7);
    expect(report.calibrated?.heldOutRefused).toBe(outOfScopeRecall);
    expect(formatIntentQuality(report)).toContain(
      `Calibrated nlpThreshold: ${report.suggestedThreshold} (cross-validated:`,
    );
    expect(formatIntentQuality(report)).toContain('; the bot uses it.');
  });

  it('when the author set nlpThreshold, then the report says the bot uses theirs instead of the calibrated one', async () => {
    const definition = await loadDefinition(DEMO_BOT_DEFINITION);
    const report = reportIntentQuality({ intents: definition.intents, settings: { locale: 'en', nlpThreshold: 0.55 } });
    expect(report).toMatchObject({ threshold: 0.55, thresholdSource: 'definition' });
    expect(formatIntentQuality(report)).toContain('; the definition sets 0.55, which the bot uses instead.');
  });

  it('when a bot has two intents, then the threshold is calibrated on off-topic sentences alone: there is no intent to hold out', () => {
    const report = reportIntentQuality({
      settings,
      intents: [
        intent('a', ['one', 'two', 'three', 'four', 'five', 'six']),
        intent('b', ['seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']),
      ],
    });
    expect(report.calibrated?.heldOutRefused).toBeNull();
    expect(report.calibrated?.backgroundRefused).toBeGreaterThanOrEqual(0.9);
  });
});
