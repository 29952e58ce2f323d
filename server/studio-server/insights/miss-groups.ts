import { createHash } from 'node:crypto';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { EmbeddingProvider } from '../../ports/embeddings.ts';
import { createFaqMatcher, prepareFaqMatcher } from '../../nlp/faq-matcher.ts';
import { dot, fitVectoriser, type SparseVector } from '../../nlp/features.ts';
import { trainIntentClassifier } from '../../nlp/intent-classifier.ts';
import { WORD_MODEL } from '../../nlp/intent-fit.ts';
import { analyserFor } from '../../nlp/language.ts';
import type { FaqMatcher, IntentClassifier } from '../../ports/understanding.ts';
import type { MissGroup, TaughtTo, TextCount } from '../../../shared/studio-misses.ts';
import { phrasingKey, type TeachableDefinition } from './teachable.ts';
import { learnTypos } from './typo-words.ts';

export type { MissGroup, TextCount };

/**
 * Grouping what the bot did not understand by likeness, with the product's own NLP: the word
 * vectors the intent classifier is built on (stems, stem pairs and character n-grams, TF-IDF, in
 * the bot's locale). Each group gets the intent the classifier would pick and the FAQ pair the
 * matcher would pick, from the definition the author is editing: that is where an added phrasing
 * would go. With EMBEDDINGS set, those suggestions come from the models with sentence embeddings,
 * for the most frequent groups only (each is one encoding of a visitor's text, as in a turn);
 * the grouping itself stays on words: encoding a thousand visitors' texts at once would either
 * put them in the embedding cache's file (which holds the bot's own phrasings only, never what a
 * visitor wrote) or cost a request each.
 */

/** Distinct texts grouped at most (the most frequent kept): grouping compares each with every group's first. */
export const MAX_DISTINCT = 1_000;
/** Example inputs listed per group, the most frequent first (the group's count covers all). */
export const MAX_EXAMPLES = 10;
/**
 * Two texts are one group from this similarity of their vectors (cosine, 0..1). Measured on short
 * shop phrasings with the classifier's vectors: "Where is my parcel" / "parcel where??" 1.00,
 * "… / my parcel has not arrived" 0.50, "I want a refund" / "refund please now" 0.42, "order status" /
 * "where is my order" 0.46 group; "where is my parcel" / "where is the shop" 0.00 do not. A typo
 * alone ("parcle") kept only character n-grams in common (0.20): typos are now folded onto the word
 * they miss first (typo-words.ts), and the pair is 1.00.
 * On the test splits of BANKING77 / HWU64 (bench/nlp/misses-typos.ts: six inputs per intent, each
 * also with a typo in its longest word; the bot knows five training sentences per intent), at 0.4:
 * an input and its typo join 98.3 % / 97.3 % of the time (86.6 % / 87.6 % without folding), two
 * inputs of one intent 21.3 % / 10.5 % (20.9 % / 9.6 %), two of different intents 0.3 % / 0.1 %
 * (unchanged). At 0.3 different intents join twice as often (0.7 % / 0.3 %); at 0.5 one intent's
 * inputs half as often: 0.4 stays.
 */
export const GROUP_SIMILARITY = 0.4;
/** With EMBEDDINGS, groups whose suggestions come from the models with embeddings (the rest: words alone). */
export const EMBEDDED_SUGGESTIONS = 20;
/** Texts compared, or groups suggested for, between two yields to the event loop (tens of ms of work at most, at the bound). */
const YIELD_EVERY = 50;

export interface Models {
  readonly classifier: IntentClassifier | null;
  readonly faq: FaqMatcher | null;
  /** The same models with sentence embeddings, when EMBEDDINGS is set and they could be trained. */
  readonly embedded?: { readonly classifier: IntentClassifier | null; readonly faq: FaqMatcher | null };
}

/** The draft's classifier and FAQ matcher, trained as the server trains the bot in service. */
export async function modelsOf(
  definition: TeachableDefinition,
  embeddings: EmbeddingProvider | undefined,
): Promise<Models> {
  const { locale, synonyms } = definition.settings;
  const intents = definition.intents.map((i) => ({ id: i.id, dialog: i.dialog ?? '', utterances: [...i.utterances] }));
  const pairs = definition.faq.map((p) => ({ id: p.id, questions: [...p.questions], answer: '' }));
  const plain = { locale, synonyms: synonyms.map((g) => [...g]) };
  const words = {
    classifier: intents.length > 0 ? await trainIntentClassifier(intents, locale) : null,
    faq: pairs.length > 0 ? createFaqMatcher(pairs, plain) : null,
  };
  if (!embeddings) return words;
  try {
    // The bot's own phrasings go through the provider's cache, as at start-up.
    const embedded = {
      classifier: intents.length > 0 ? await trainIntentClassifier(intents, locale, { embeddings }) : null,
      faq: pairs.length > 0 ? await prepareFaqMatcher(pairs, { ...plain, embeddings }) : null,
    };
    return { ...words, embedded };
  } catch {
    // The endpoint is down: words alone, as a turn falls back.
    return words;
  }
}

/**
 * The vectors the misses are compared by: the classifier's features of each text with its typos
 * folded onto the words they miss (typo-words.ts; the bot's own spelling first), fitted on the
 * inputs and the bot's own phrasings, so rare words weigh as the classifier weighs them.
 * `foldTypos: false` only for the benchmark that measures what folding changes.
 */
export function likenessVectors(
  texts: readonly TextCount[],
  definition: TeachableDefinition,
  options: { readonly foldTypos?: boolean } = {},
): SparseVector[] {
  const analyser = analyserFor(definition.settings.locale);
  const phrasings = [...definition.intents.flatMap((i) => i.utterances), ...definition.faq.flatMap((p) => p.questions)];
  const typos =
    options.foldTypos === false
      ? null
      : learnTypos([...texts, ...phrasings.map((text) => ({ text, count: 1, trusted: true }))], analyser);
  const inputs = texts.map((t) => (typos ? typos.fold(t.text) : t.text));
  const vectoriser = fitVectoriser([...inputs, ...phrasings], analyser, {
    wordWeight: WORD_MODEL.wordWeight,
    charRange: WORD_MODEL.charRange,
    charSource: WORD_MODEL.charSource,
    pairs: WORD_MODEL.pairs,
  });
  return inputs.map((text) => vectoriser.vector(text));
}

/**
 * Groups `texts` (distinct, with their counts) greedily: most frequent first, each joins the
 * first group whose leading text it is close enough to, or leads a new one. At most `maxDistinct`
 * texts (MAX_DISTINCT by default), so the work is bounded whatever was read.
 */
export async function groupMisses(
  texts: readonly TextCount[],
  definition: TeachableDefinition,
  options: { readonly models: Models; readonly maxDistinct?: number },
): Promise<MissGroup[]> {
  const sorted = [...texts]
    .sort((a, b) => b.count - a.count || a.text.localeCompare(b.text))
    .slice(0, options.maxDistinct ?? MAX_DISTINCT);
  if (sorted.length === 0) return [];
  const vectors = likenessVectors(sorted, definition);
  const taught = taughtIndex(definition);
  const groups: { leader: number; members: number[] }[] = [];
  for (let i = 0; i < sorted.length; i++) {
    // Turns of visitors go on meanwhile: the server's one thread is let go now and then.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await setImmediatePromise();
    const home = groups.find((g) => dot(vectors[g.leader]!, vectors[i]!) >= GROUP_SIMILARITY);
    if (home) home.members.push(i);
    else groups.push({ leader: i, members: [i] });
  }
  const counted = groups
    .map((group) => ({ group, count: group.members.reduce((n, i) => n + sorted[i]!.count, 0) }))
    .sort((a, b) => b.count - a.count || sorted[a.group.leader]!.text.localeCompare(sorted[b.group.leader]!.text));
  const out: MissGroup[] = [];
  let embedded = options.models.embedded;
  for (const [index, { group, count }] of counted.entries()) {
    const members = group.members.map((i) => sorted[i]!);
    const leader = sorted[group.leader]!.text;
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await setImmediatePromise();
    const models = embedded && index < EMBEDDED_SUGGESTIONS ? embedded : options.models;
    const suggestion = await suggest(leader, models);
    // A text the endpoint could not encode was classified on words (the word model's id): the rest go on words at once.
    if (models === embedded && suggestion.wordsOnly) embedded = undefined;
    const where = members.map((m) => taught.get(phrasingKey(m.text)) ?? null);
    const targets = new Map(where.flatMap((t) => (t ? [[`${t.kind} ${t.id}`, t] as const] : [])));
    out.push({
      id: createHash('sha256').update(leader, 'utf8').digest('hex').slice(0, 16),
      count,
      distinct: members.length,
      examples: members.slice(0, MAX_EXAMPLES).map((m, i) => ({ text: m.text, count: m.count, taught: where[i]! })),
      suggestion: { intent: suggestion.intent, faq: suggestion.faq },
      taught: { all: where.every((t) => t !== null), to: [...targets.values()] },
    });
  }
  // Groups the draft already holds every input of go last: the author has taught them since.
  return [...out.filter((g) => !g.taught.all), ...out.filter((g) => g.taught.all)];
}

/** Where each phrasing of the definition is: intents first, then FAQ pairs (as addPhrasings compares). */
function taughtIndex(definition: TeachableDefinition): Map<string, TaughtTo> {
  const index = new Map<string, TaughtTo>();
  for (const intent of definition.intents)
    for (const u of intent.utterances)
      if (!index.has(phrasingKey(u))) index.set(phrasingKey(u), { kind: 'intent', id: intent.id });
  for (const pair of definition.faq)
    for (const q of pair.questions)
      if (!index.has(phrasingKey(q))) index.set(phrasingKey(q), { kind: 'faq', id: pair.id });
  return index;
}

async function suggest(
  text: string,
  models: Pick<Models, 'classifier' | 'faq'>,
): Promise<MissGroup['suggestion'] & { wordsOnly: boolean }> {
  const intent = models.classifier ? await models.classifier.classify(text) : null;
  const faq = models.faq ? await models.faq.match(text) : null;
  // A score of 0 is no evidence at all (the text is no nearer the intent's examples than the floor): no suggestion then.
  return {
    intent: intent?.intent && intent.score > 0 ? { id: intent.intent, score: intent.score } : null,
    faq: faq?.id && faq.score > 0 ? { id: faq.id, score: faq.score } : null,
    wordsOnly: intent !== null && intent.modelId.startsWith('tfidf-'),
  };
}
