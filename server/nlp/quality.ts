import type { BotDefinition } from '../definition/schema.ts';
import { analyserFor } from './language.ts';
import { trainIntentModel, type LabelledText } from './intent-model.ts';

/**
 * What a bot author should know before deploying: how well the intents'
 * own utterances classify each other when each is held out (k-fold
 * cross-validation through the same model the server trains), and which pairs
 * of intents the model mixes up.
 */
export interface IntentQualityReport {
  readonly intents: number;
  readonly utterances: number;
  readonly folds: number;
  /** Share of held-out utterances whose best intent is their own (null: too few utterances to tell). */
  readonly accuracy: number | null;
  /** Share routed right at the bot's nlpThreshold (below it counts as a miss). */
  readonly accuracyAtThreshold: number | null;
  readonly threshold: number;
  /**
   * The threshold that balances the two errors on this bot's own utterances, from a second
   * cross-validation that also holds whole intents out (their utterances stand for texts the bot
   * has no intent for): the one where the smaller of the share routed right and the share of
   * held-out intents' texts turned away is largest. Null when the bot has fewer
   * than three intents.
   */
  readonly suggestedThreshold: number | null;
  /** At the suggested threshold: share of held-out utterances routed right, share of held-out intents' utterances turned away. */
  readonly atSuggested: { readonly routedRight: number; readonly outOfScopeRecall: number } | null;
  /** Pairs of intents whose utterances were taken for each other, most often first. */
  readonly confusable: readonly { readonly intents: readonly [string, string]; readonly count: number; readonly examples: readonly string[] }[];
  /** Intents with fewer utterances than a model needs to generalise. */
  readonly thinIntents: readonly string[];
  /** Sentences for a person, one finding each. */
  readonly findings: readonly string[];
}

const FOLDS = 5;
const THIN = 5;
/** Bounded so a definition with thousands of utterances is checked in seconds, not minutes. */
const MAX_UTTERANCES = 3_000;

/** What the report reads of a definition: a whole BotDefinition fits. */
export interface QualityInput {
  readonly intents: BotDefinition['intents'];
  readonly settings: Pick<BotDefinition['settings'], 'locale' | 'nlpThreshold'>;
}

export interface QualityOptions {
  /** Sentence embeddings of the utterances, when the bot runs with them: the report then cross-validates the model the server runs. */
  readonly embeddings?: ReadonlyMap<string, Float32Array>;
}

export function reportIntentQuality(definition: QualityInput, options: QualityOptions = {}): IntentQualityReport {
  const { intents, settings } = definition;
  const analyser = analyserFor(settings.locale);
  const threshold = settings.nlpThreshold;
  const examples: LabelledText[] = intents.flatMap((i) => i.utterances.map((text) => ({ text, label: i.id }))).slice(0, MAX_UTTERANCES);
  const thinIntents = intents.filter((i) => i.utterances.length < THIN).map((i) => i.id);
  const findings: string[] = [];
  if (intents.length < 2 || examples.length < 2 * FOLDS) {
    if (intents.length > 0) findings.push('Too few intents or utterances to cross-validate: add more example phrasings.');
    return { intents: intents.length, utterances: examples.length, folds: 0, accuracy: null, accuracyAtThreshold: null, threshold, suggestedThreshold: null, atSuggested: null, confusable: [], thinIntents, findings };
  }
  // Round-robin folds within each intent, so every fold holds some of each.
  const seen = new Map<string, number>();
  const fold = examples.map((e) => {
    const n = seen.get(e.label) ?? 0;
    seen.set(e.label, n + 1);
    return n % FOLDS;
  });
  let correct = 0;
  let routed = 0;
  let tested = 0;
  const confusions = new Map<string, { intents: [string, string]; count: number; examples: string[] }>();
  for (let f = 0; f < FOLDS; f++) {
    const model = train(examples.filter((_, i) => fold[i] !== f));
    examples.forEach((example, i) => {
      if (fold[i] !== f) return;
      // An intent all of whose utterances sit in this fold cannot be predicted: it is counted, which is the point.
      tested++;
      const prediction = model.predict(example.text, options.embeddings?.get(example.text));
      if (prediction.label === example.label) {
        correct++;
        if (prediction.score >= threshold) routed++;
      } else if (prediction.label !== null) {
        const pair = [example.label, prediction.label].sort() as [string, string];
        const key = pair.join('\u0000');
        const entry = confusions.get(key) ?? { intents: pair, count: 0, examples: [] };
        entry.count++;
        if (entry.examples.length < 3) entry.examples.push(`"${example.text}" (${example.label}) → ${prediction.label}`);
        confusions.set(key, entry);
      }
    });
  }
  const suggestion = intents.length >= 3 ? suggestThreshold(examples, fold, intents.map((i) => i.id), train, options.embeddings) : null;
  const confusable = [...confusions.values()].filter((c) => c.count >= 2).sort((a, b) => b.count - a.count).slice(0, 20);
  const accuracy = correct / tested;
  const accuracyAtThreshold = routed / tested;
  findings.push(`${percent(accuracy)} of utterances are classified as their own intent when held out; ${percent(accuracyAtThreshold)} clear the threshold ${threshold}.`);
  if (suggestion) {
    findings.push(
      `Suggested nlpThreshold: ${suggestion.threshold} (cross-validated: ${percent(suggestion.routedRight)} of utterances routed right, ${percent(suggestion.outOfScopeRecall)} of texts about intents the bot lacks turned away)` +
        (suggestion.threshold === threshold ? '; the bot already uses it.' : `; the bot uses ${threshold}.`),
    );
  }
  for (const c of confusable) findings.push(`Intents "${c.intents[0]}" and "${c.intents[1]}" are confused ${c.count} times: make their phrasings more distinct, or merge them.`);
  if (thinIntents.length > 0) findings.push(`Intents with fewer than ${THIN} utterances: ${thinIntents.join(', ')}. Ten or more varied phrasings each generalise far better.`);
  return {
    intents: intents.length,
    utterances: examples.length,
    folds: FOLDS,
    accuracy: round(accuracy),
    accuracyAtThreshold: round(accuracyAtThreshold),
    threshold,
    suggestedThreshold: suggestion?.threshold ?? null,
    atSuggested: suggestion ? { routedRight: round(suggestion.routedRight), outOfScopeRecall: round(suggestion.outOfScopeRecall) } : null,
    confusable,
    thinIntents,
    findings,
  };

  function train(subset: readonly LabelledText[]) {
    const vectors = options.embeddings;
    return trainIntentModel(subset, analyser, vectors ? { embeddings: subset.map((e) => vectors.get(e.text) ?? new Float32Array(0)) } : {});
  }
}

/** Thresholds tried, in steps a person would write. */
const CANDIDATES = Array.from({ length: 15 }, (_, i) => Math.round((0.3 + i * 0.05) * 100) / 100);

/**
 * Each fold also holds out every fifth intent (a different fifth each time): the model never saw
 * them, so their utterances in the fold are what a user asking for something else looks like.
 */
function suggestThreshold(
  examples: readonly LabelledText[],
  fold: readonly number[],
  ids: readonly string[],
  train: (subset: readonly LabelledText[]) => { predict(text: string, embedding?: Float32Array | null): { label: string | null; score: number } },
  embeddings: ReadonlyMap<string, Float32Array> | undefined,
): { threshold: number; routedRight: number; outOfScopeRecall: number } | null {
  const inScope: { right: boolean; score: number }[] = [];
  const outOfScope: number[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const absent = new Set(ids.filter((_, i) => i % FOLDS === f));
    if (absent.size === ids.length) continue;
    const model = train(examples.filter((e, i) => fold[i] !== f && !absent.has(e.label)));
    examples.forEach((example, i) => {
      if (fold[i] !== f) return;
      const prediction = model.predict(example.text, embeddings?.get(example.text));
      if (absent.has(example.label)) outOfScope.push(prediction.score);
      else inScope.push({ right: prediction.label === example.label, score: prediction.score });
    });
  }
  if (inScope.length === 0 || outOfScope.length === 0) return null;
  let best: { threshold: number; routedRight: number; outOfScopeRecall: number } | null = null;
  for (const threshold of CANDIDATES) {
    const routedRight = inScope.filter((q) => q.right && q.score >= threshold).length / inScope.length;
    const outOfScopeRecall = outOfScope.filter((s) => s < threshold).length / outOfScope.length;
    // The worse of the two as high as it goes (one error is never bought with the other); ties by their mean.
    const value = Math.min(routedRight, outOfScopeRecall) + (routedRight + outOfScopeRecall) * 1e-3;
    if (!best || value > Math.min(best.routedRight, best.outOfScopeRecall) + (best.routedRight + best.outOfScopeRecall) * 1e-3) best = { threshold, routedRight, outOfScopeRecall };
  }
  return best;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The report as lines for a terminal: what a `check` command prints. */
export function formatIntentQuality(report: IntentQualityReport): string {
  const head = `Intents: ${report.intents}, utterances: ${report.utterances}${report.folds > 0 ? `, ${report.folds}-fold cross-validation` : ''}`;
  return [head, ...report.findings.map((f) => `- ${f}`), ...report.confusable.flatMap((c) => c.examples.map((e) => `    ${e}`))].join('\n');
}
