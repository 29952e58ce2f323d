import type { Analyser } from './language.ts';

/** A sparse, L2-normalised feature vector: parallel arrays of feature indices and weights. */
export interface SparseVector {
  readonly indices: Int32Array;
  readonly values: Float32Array;
}

/**
 * TF-IDF features of a text in two blocks: word stems (content words and
 * adjacent pairs) carry meaning; character 3- to 5-grams of the words carry
 * typos and compounds ("creditcard", "adress"). Each block is normalised on its
 * own and then weighted, so a long text's many n-grams do not drown its words.
 */
export interface Vectoriser {
  readonly size: number;
  vector(text: string): SparseVector;
  /** The content-word stems of a text, as the vectoriser sees them. */
  stems(text: string): string[];
}

export interface VectoriserOptions {
  /** Share of the vector's weight on words (the rest on character n-grams). */
  readonly wordWeight?: number;
  /** Keep stopwords as features: short intent phrasings ("why", "how", "not") lean on them. */
  readonly keepStopwords?: boolean;
  /** Extra stems a stem also counts as (synonyms), e.g. parcel → package. */
  readonly synonyms?: ReadonlyMap<string, readonly string[]>;
  /** Lengths of the character n-grams, shortest and longest. */
  readonly charRange?: readonly [number, number];
  /** Character n-grams of the stems (default) or of the words as typed: "cancellation" keeps its tail. */
  readonly charSource?: 'stems' | 'words';
  /** Adjacent stem pairs as features. */
  readonly pairs?: boolean;
  /**
   * Terms already read, by text, for vectorisers of the same analyser and options: a bot's
   * cross-validation fits one on each fold of the same texts, and reading a text (words, stems,
   * character n-grams) is a quarter of its cost. Kept by the vectoriser: only for ones dropped with it.
   */
  readonly memo?: TermsMemo;
}

/** A text's terms: its word features and its character n-grams. */
export interface Terms {
  readonly words: readonly string[];
  readonly chars: readonly string[];
}
export type TermsMemo = Map<string, Terms>;

/** Inputs are cut to this many characters: a turn is a sentence, not a document. */
export const MAX_TEXT = 1_000;

export function fitVectoriser(
  texts: readonly string[],
  analyser: Analyser,
  options: VectoriserOptions = {},
): Vectoriser {
  const wordWeight = options.wordWeight ?? 0.6;
  const synonyms = options.synonyms ?? new Map<string, readonly string[]>();
  const keepStopwords = options.keepStopwords ?? false;
  const [charFrom, charTo] = options.charRange ?? [3, 5];
  const charsOfWords = options.charSource === 'words';
  const pairs = options.pairs ?? true;
  const kept = (text: string): string[] => {
    const words = analyser.words(text.slice(0, MAX_TEXT));
    const content = keepStopwords ? words : words.filter((w) => !analyser.isStopword(w));
    // A text of stopwords only ("where are you") still needs words to compare.
    return content.length > 0 ? content : words;
  };
  const stems = (text: string): string[] => kept(text).map((w) => analyser.stem(w));
  const memo = options.memo;
  const terms = (text: string): Terms => {
    const known = memo?.get(text);
    if (known) return known;
    const read = readTerms(text);
    memo?.set(text, read);
    return read;
  };
  const readTerms = (text: string): Terms => {
    const k = kept(text);
    const s = k.map((w) => analyser.stem(w));
    const words: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const stem = s[i] as string;
      words.push(`w ${stem}`);
      for (const synonym of synonyms.get(stem) ?? []) words.push(`w ${synonym}`);
      if (pairs && i + 1 < s.length) words.push(`b ${stem} ${s[i + 1]}`);
    }
    const chars: string[] = [];
    for (const word of charsOfWords ? k : s) {
      const padded = ` ${word} `;
      for (let n = charFrom; n <= charTo; n++)
        for (let i = 0; i + n <= padded.length; i++) chars.push(`c${padded.slice(i, i + n)}`);
    }
    return { words, chars };
  };

  const index = new Map<string, number>();
  const df: number[] = [];
  for (const text of texts) {
    const { words, chars } = terms(text);
    for (const term of new Set([...words, ...chars])) {
      let i = index.get(term);
      if (i === undefined) {
        i = index.size;
        index.set(term, i);
        df.push(0);
      }
      df[i] = (df[i] as number) + 1;
    }
  }
  const idf = Float32Array.from(df, (d) => Math.log((1 + texts.length) / (1 + d)) + 1);

  const block = (list: readonly string[], weight: number, out: Map<number, number>): void => {
    const counts = new Map<number, number>();
    for (const term of list) {
      const i = index.get(term);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    let norm = 0;
    for (const [i, count] of counts) {
      const w = (1 + Math.log(count)) * (idf[i] as number);
      counts.set(i, w);
      norm += w * w;
    }
    if (norm === 0) return;
    const scale = Math.sqrt(weight) / Math.sqrt(norm);
    for (const [i, w] of counts) out.set(i, w * scale);
  };

  return {
    size: index.size,
    stems,
    vector(text) {
      const { words, chars } = terms(text);
      const out = new Map<number, number>();
      block(words, wordWeight, out);
      block(chars, 1 - wordWeight, out);
      let norm = 0;
      for (const v of out.values()) norm += v * v;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      // A turn's text is vectorised twice (features and evidence): typed arrays sorted in place, no pairs to allocate.
      const indices = Int32Array.from(out.keys()).sort();
      const values = new Float32Array(indices.length);
      for (let k = 0; k < indices.length; k++) values[k] = (out.get(indices[k] as number) as number) * scale;
      return { indices, values };
    },
  };
}

export function dot(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const ai = a.indices[i] as number;
    const bj = b.indices[j] as number;
    if (ai === bj) sum += (a.values[i++] as number) * (b.values[j++] as number);
    else if (ai < bj) i++;
    else j++;
  }
  return sum;
}
