import type { Analyser } from '../../nlp/language.ts';

/**
 * Typos folded onto the word they miss, before the misses are compared: "where is my parcle"
 * reads as "where is my parcel" when "parcel" is the commoner spelling among the inputs and the
 * bot's own phrasings. Two texts that differ by a typo alone share no word stem, and their
 * character n-grams alone leave them far apart (0.20, see GROUP_SIMILARITY); so a word one edit
 * (a letter inserted, dropped, changed, or two neighbours swapped) from a commoner word of the
 * vocabulary counts as that word. Only words of MIN_LENGTH letters or more: among short words one
 * edit is often another word ("card" / "cart", "top" / "tap").
 *
 * Bounded: at most MAX_VOCABULARY distinct words (the most frequent) and words of at most
 * MAX_LENGTH letters take part, each with one key per letter (the word with that letter dropped).
 */

export const MIN_LENGTH = 5;
const MAX_LENGTH = 24;
const MAX_VOCABULARY = 20_000;
/** A typo of a typo ("parcell" → "parcel" ← "parcle") meets the root in at most this many steps. */
const MAX_HOPS = 3;

export interface TypoFolder {
  /** The text with each folded word replaced by the word it is taken for (other words as they were). */
  fold(text: string): string;
  /** Words taken for another word, for tests and reports: typo → word. */
  readonly folded: ReadonlyMap<string, string>;
}

/**
 * Learns which words are typos of which from `weighted` texts (each with how often it was seen;
 * the bot's phrasings count as well-spelt and win ties).
 */
export function learnTypos(
  weighted: readonly { readonly text: string; readonly count: number; readonly trusted?: boolean }[],
  analyser: Analyser,
): TypoFolder {
  const frequency = new Map<string, number>();
  const trusted = new Set<string>();
  for (const { text, count, trusted: fromBot } of weighted) {
    for (const word of analyser.words(text)) {
      frequency.set(word, (frequency.get(word) ?? 0) + count);
      if (fromBot) trusted.add(word);
    }
  }
  const vocabulary = [...frequency.entries()]
    // Stopwords are dropped when texts are compared, and many are one edit from another ("where" / "there").
    .filter(
      ([word]) =>
        word.length >= MIN_LENGTH && word.length <= MAX_LENGTH && !/\p{N}/u.test(word) && !analyser.isStopword(word),
    )
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_VOCABULARY)
    .map(([word]) => word);
  // Which word ranks above which: the bot's own words first, then the more frequent, then the earlier in order.
  const rank = new Map<string, number>();
  [...vocabulary]
    .sort(
      (a, b) =>
        Number(trusted.has(b)) - Number(trusted.has(a)) || frequency.get(b)! - frequency.get(a)! || (a < b ? -1 : 1),
    )
    .forEach((word, i) => rank.set(word, i));
  const byKey = new Map<string, string[]>();
  for (const word of vocabulary) {
    for (const key of deletions(word)) {
      const list = byKey.get(key);
      if (list) list.push(word);
      else byKey.set(key, [word]);
    }
  }
  // Each word's best neighbour that ranks above it: at most one step up per word.
  const up = new Map<string, string>();
  for (const word of vocabulary) {
    let best: string | undefined;
    for (const key of deletions(word)) {
      for (const other of byKey.get(key) ?? []) {
        if (rank.get(other)! >= rank.get(word)! || (best !== undefined && rank.get(other)! >= rank.get(best)!))
          continue;
        if (oneEditApart(word, other)) best = other;
      }
    }
    if (best) up.set(word, best);
  }
  const folded = new Map<string, string>();
  for (const word of up.keys()) {
    let root = word;
    for (let hop = 0; hop < MAX_HOPS && up.has(root); hop++) root = up.get(root)!;
    folded.set(word, root);
  }
  return {
    folded,
    fold(text) {
      if (folded.size === 0) return text;
      return analyser
        .words(text)
        .map((word) => folded.get(word) ?? word)
        .join(' ');
    },
  };
}

/** The word itself and the word with each one letter dropped: two words one edit apart share one of these. */
function deletions(word: string): Set<string> {
  const keys = new Set<string>([word]);
  for (let i = 0; i < word.length; i++) keys.add(word.slice(0, i) + word.slice(i + 1));
  return keys;
}

/** Whether a becomes b by inserting, dropping or changing one letter, or swapping two neighbours. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff: number[] = [];
    for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}
