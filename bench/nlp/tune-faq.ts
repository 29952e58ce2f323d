// Fits the FAQ matcher's score with embeddings (server/nlp/faq-matcher.ts, EMBEDDED_FAQ_SCORE) on
// the TRAINING splits of both public sets, never their test splits. Cross-validation folds: three
// rotations of the twenty held-out intents (other than the benchmark's own) × two choices of the
// stored question (each intent's 1st or 6th training sentence); the queries are half of the other
// training sentences, those of held-out intents being out of scope. For the similarity of the
// product (words and embeddings, or words alone), it prints what the score before (the similarity
// alone) and the fitted logistic score answer right, wrong and falsely at the cut that keeps false
// answers at FALSE_RATE (8 %) on both sets, and the calibration to paste.
//   node --import tsx bench/nlp/tune-faq.ts          (needs the provisioned local encoder)
import { dot, fitVectoriser } from '../../server/nlp/features.ts';
import { EMBEDDED_FAQ_SCORE } from '../../server/nlp/faq-matcher.ts';
import { analyserFor } from '../../server/nlp/language.ts';
import { dense } from '../../server/nlp/embeddings/vectors.ts';
import { DATA_SETS, intentsOf, readDataSet, type Example } from './data.ts';
import { benchEncoder, embedAll } from './embed-sets.ts';
import { fitLogistic, score as linear } from './logistic.ts';

const encoder = await benchEncoder();
if ('reason' in encoder) throw new Error(encoder.reason);
const cached = {
  modelId: encoder.provider.modelId,
  embed: (t: readonly string[]) => encoder.provider.embed(t, 'batch'),
  close: async () => {},
};
const FALSE_RATE = Number(process.env.FALSE_RATE ?? 0.08);
const PHRASINGS = Number(process.env.PHRASINGS ?? 1);
const {
  embeddingShare: share,
  crowding: crowdingShare,
  marginCap,
} = EMBEDDED_FAQ_SCORE.kind === 'logistic'
  ? EMBEDDED_FAQ_SCORE
  : { embeddingShare: 0.85, crowding: 0.5, marginCap: 0.3 };

/** As data.ts heldOut, rotated: offset 0 is the benchmark's own choice. */
const heldAt = (intents: readonly string[], offset: number): Set<string> =>
  new Set(intents.filter((_, i) => ((i + offset) * 20) % intents.length < 20));

interface Query {
  readonly set: string;
  readonly oos: boolean;
  readonly right: boolean;
  /** The similarity of the best pair, and the product's features. */
  readonly similarity: number;
  readonly features: number[];
}

/** The matcher's similarities (same vectoriser, same cosines), one fold at a time. */
function fold(
  set: string,
  embedding: Map<string, Float32Array>,
  stored: Map<string, string[]>,
  queries: readonly Example[],
  held: Set<string>,
): Query[] {
  const intents = [...stored.keys()];
  const vectoriser = fitVectoriser([...stored.values()].flat(), analyserFor('en'), { synonyms: new Map() });
  const pairs = intents.map((intent) =>
    (stored.get(intent) as string[]).map((text) => ({
      words: vectoriser.vector(text),
      embedding: embedding.get(text) as Float32Array,
    })),
  );
  // Each phrasing's crowding: its highest cosine to a stored question of another pair.
  const crowding = pairs.map((mine, j) =>
    mine.map((a) =>
      Math.max(0, ...pairs.flatMap((other, k) => (k === j ? [] : other.map((b) => dense(a.embedding, b.embedding))))),
    ),
  );
  return queries.map((q) => {
    const words = vectoriser.vector(q.text);
    const e = embedding.get(q.text) as Float32Array;
    const closest = pairs.map((phrasings, j) => {
      const s = phrasings.map((p) => (1 - share) * dot(words, p.words) + share * dense(e, p.embedding));
      const at = s.indexOf(Math.max(...s));
      return { similarity: s[at] as number, crowding: (crowding[j] as number[])[at] as number };
    });
    const order = closest
      .map((_, j) => j)
      .sort(
        (a, b) => (closest[b] as { similarity: number }).similarity - (closest[a] as { similarity: number }).similarity,
      );
    const [top, next] = order as [number, number];
    const { similarity, crowding: crowded } = closest[top] as { similarity: number; crowding: number };
    return {
      set,
      oos: held.has(q.intent),
      right: intents[top] === q.intent,
      similarity,
      features: [
        similarity - crowdingShare * crowded,
        Math.min(marginCap, similarity - (closest[next] as { similarity: number }).similarity),
      ],
    };
  });
}

const train: Query[] = [];
for (const name of DATA_SETS) {
  const set = readDataSet(name);
  if (!set) continue;
  const embedding = await embedAll(
    cached,
    set.train.map((e) => e.text),
  );
  const byIntent = new Map<string, string[]>();
  for (const e of set.train) byIntent.set(e.intent, [...(byIntent.get(e.intent) ?? []), e.text]);
  for (const offset of [1, 2, 3]) {
    const held = heldAt(intentsOf(set.train), offset);
    for (const first of [0, 5]) {
      const stored = new Map(
        [...byIntent]
          .filter(([intent]) => !held.has(intent))
          .map(([intent, texts]) => [intent, texts.slice(first, first + PHRASINGS)]),
      );
      const used = new Set([...byIntent.values()].flatMap((texts) => texts.slice(first, first + PHRASINGS)));
      train.push(
        ...fold(
          name,
          embedding,
          stored,
          set.train.filter((e, n) => !used.has(e.text) && n % 2 === offset % 2),
          held,
        ),
      );
    }
  }
}

const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)} %`;
/** The cut where each set answers FALSE_RATE of its out-of-scope questions; the higher of the two serves both. */
function report(what: string, z: readonly number[]): number {
  const sets = [...new Set(train.map((q) => q.set))];
  const cut = Math.max(
    ...sets.map((s) => {
      const oos = train.flatMap((q, i) => (q.set === s && q.oos ? [z[i] as number] : [])).sort((a, b) => b - a);
      return oos[Math.floor(oos.length * FALSE_RATE)] as number;
    }),
  );
  const line = sets.map((s) => {
    const mine = train.flatMap((q, i) => (q.set === s ? [{ q, z: z[i] as number }] : []));
    const inScope = mine.filter(({ q }) => !q.oos);
    const oos = mine.filter(({ q }) => q.oos);
    return `${s} right ${pct(inScope.filter(({ q, z }) => q.right && z > cut).length, inScope.length)}, wrong ${pct(inScope.filter(({ q, z }) => !q.right && z > cut).length, inScope.length)}, false ${pct(oos.filter(({ z }) => z > cut).length, oos.length)} (top-1 ${pct(inScope.filter(({ q }) => q.right).length, inScope.length)})`;
  });
  console.log(`${what}, cut ${cut.toFixed(4)}: ${line.join('; ')}`);
  return cut;
}

console.log(`${PHRASINGS} stored question(s) per pair, embedding share ${share}, ${train.length} training queries`);
report(
  'similarity alone',
  train.map((q) => q.similarity),
);
const weights = fitLogistic(
  train.map((q) => q.features),
  train.map((q) => (!q.oos && q.right ? 1 : 0)),
);
const cut = report(
  'logistic score (similarity − crowding, margin)',
  train.map((q) => linear(weights, q.features)),
);
// The score is 0.6 (the default threshold) where the logit reaches the cut: the bias moves by logit(0.6) − cut.
const bias = (weights[2] as number) - cut + Math.log(0.6 / 0.4);
console.log(
  `calibration for server/nlp/faq-matcher.ts: weights [${weights
    .slice(0, 2)
    .map((w) => w.toFixed(3))
    .join(', ')}], bias ${bias.toFixed(3)}`,
);
