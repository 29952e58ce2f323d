import { createHash } from 'node:crypto';
import type { EmbeddingProvider } from '../../ports/embeddings.ts';
import { createFaqMatcher, prepareFaqMatcher } from '../../nlp/faq-matcher.ts';
import { dot, fitVectoriser, type SparseVector } from '../../nlp/features.ts';
import { trainIntentClassifier } from '../../nlp/intent-classifier.ts';
import { WORD_MODEL } from '../../nlp/intent-model.ts';
import { analyserFor } from '../../nlp/language.ts';
import { dense } from '../../nlp/embeddings/vectors.ts';
import type { FaqMatcher, IntentClassifier } from '../../ports/understanding.ts';
import type { TeachableDefinition } from './teachable.ts';

/**
 * Grouping what the bot did not understand by likeness, with the product's own NLP: the word
 * vectors the intent classifier is built on (stems, stem pairs and character n-grams, TF-IDF, in
 * the bot's locale) and, when EMBEDDINGS is set, the same sentence embeddings beside them. Each
 * group gets the intent the classifier would pick and the FAQ pair the matcher would pick, from
 * the definition the author is editing: that is where an added phrasing would go.
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
 * alone ("parcle") keeps only character n-grams in common (0.20) and stays apart on words alone.
 */
export const GROUP_SIMILARITY = 0.4;
/** With embeddings, their share of the similarity (the words keep typos and names together). */
const EMBEDDING_SHARE = 0.5;

export interface TextCount {
  readonly text: string;
  readonly count: number;
}

export interface MissGroup {
  /** Stable for the same first text: the page keys its rows by it. */
  readonly id: string;
  /** Every input in the group, repeats included. */
  readonly count: number;
  /** Distinct inputs in the group. */
  readonly distinct: number;
  readonly examples: readonly TextCount[];
  /** What the draft's models would make of the group's most frequent input. */
  readonly suggestion: {
    readonly intent: { readonly id: string; readonly score: number } | null;
    readonly faq: { readonly id: string; readonly score: number } | null;
  };
}

export interface Models {
  readonly classifier: IntentClassifier | null;
  readonly faq: FaqMatcher | null;
}

/** The draft's classifier and FAQ matcher, trained as the server trains the bot in service. */
export async function modelsOf(definition: TeachableDefinition, embeddings: EmbeddingProvider | undefined): Promise<Models> {
  const { locale, synonyms } = definition.settings;
  const understanding = embeddings ? { embeddings } : {};
  const intents = definition.intents.map((i) => ({ id: i.id, dialog: i.dialog ?? '', utterances: [...i.utterances] }));
  const pairs = definition.faq.map((p) => ({ id: p.id, questions: [...p.questions], answer: '' }));
  const plain = { locale, synonyms: synonyms.map((g) => [...g]) };
  let classifier: IntentClassifier | null = null;
  let faq: FaqMatcher | null = null;
  try {
    if (intents.length > 0) classifier = await trainIntentClassifier(intents, locale, understanding);
    if (pairs.length > 0) faq = await prepareFaqMatcher(pairs, { ...plain, ...understanding });
  } catch {
    // An embeddings endpoint down: the same models on words alone.
    if (intents.length > 0) classifier = await trainIntentClassifier(intents, locale);
    if (pairs.length > 0) faq = createFaqMatcher(pairs, plain);
  }
  return { classifier, faq };
}

/**
 * Groups `texts` (distinct, with their counts) greedily: most frequent first, each joins the
 * first group whose leading text it is close enough to, or leads a new one. At most MAX_DISTINCT
 * texts, so the work is bounded whatever was read.
 */
export async function groupMisses(
  texts: readonly TextCount[],
  definition: TeachableDefinition,
  options: { readonly models: Models; readonly embeddings?: EmbeddingProvider | undefined },
): Promise<MissGroup[]> {
  const sorted = [...texts].sort((a, b) => b.count - a.count || a.text.localeCompare(b.text)).slice(0, MAX_DISTINCT);
  if (sorted.length === 0) return [];
  const analyser = analyserFor(definition.settings.locale);
  // Fitted on the inputs and the bot's own phrasings, so rare words weigh as the classifier weighs them.
  const corpus = [...sorted.map((t) => t.text), ...definition.intents.flatMap((i) => i.utterances), ...definition.faq.flatMap((p) => p.questions)];
  const vectoriser = fitVectoriser(corpus, analyser, { wordWeight: WORD_MODEL.wordWeight, charRange: WORD_MODEL.charRange, charSource: WORD_MODEL.charSource, pairs: WORD_MODEL.pairs });
  const vectors: SparseVector[] = sorted.map((t) => vectoriser.vector(t.text));
  let embedded: Float32Array[] | undefined;
  if (options.embeddings) {
    try {
      embedded = await options.embeddings.embed(sorted.map((t) => t.text), 'batch');
    } catch {
      embedded = undefined;
    }
  }
  const similarity = (i: number, j: number): number => {
    const words = dot(vectors[i]!, vectors[j]!);
    const a = embedded?.[i];
    const b = embedded?.[j];
    return a && b ? (1 - EMBEDDING_SHARE) * words + EMBEDDING_SHARE * dense(a, b) : words;
  };
  const groups: { leader: number; members: number[] }[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const home = groups.find((g) => similarity(g.leader, i) >= GROUP_SIMILARITY);
    if (home) home.members.push(i);
    else groups.push({ leader: i, members: [i] });
  }
  const out: MissGroup[] = [];
  for (const group of groups) {
    const members = group.members.map((i) => sorted[i]!);
    const leader = sorted[group.leader]!.text;
    out.push({
      id: createHash('sha256').update(leader, 'utf8').digest('hex').slice(0, 16),
      count: members.reduce((n, m) => n + m.count, 0),
      distinct: members.length,
      examples: members.slice(0, MAX_EXAMPLES),
      suggestion: await suggest(leader, options.models),
    });
  }
  return out.sort((a, b) => b.count - a.count || a.examples[0]!.text.localeCompare(b.examples[0]!.text));
}

async function suggest(text: string, models: Models): Promise<MissGroup['suggestion']> {
  const intent = models.classifier ? await models.classifier.classify(text) : null;
  const faq = models.faq ? await models.faq.match(text) : null;
  return {
    intent: intent?.intent ? { id: intent.intent, score: intent.score } : null,
    faq: faq?.id ? { id: faq.id, score: faq.score } : null,
  };
}
