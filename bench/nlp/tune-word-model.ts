// Cross-validation of the word-level intent model on the TRAINING splits of both public sets
// (BANKING77 and HWU64), never their test splits: inside the intents the benchmarks train, a
// quarter at a time is held out as pseudo out-of-scope, and training sentences the model did not
// see are the queries. Prints top-1 per set and training size, and dumps what each score is made
// of (for choosing the score's form and constants) to a JSON file; with embeddings, each dumped row
// also has features of the query in embedding space (prototype cosine and margin, the share of the
// 10 nearest examples, the nearest example of any intent).
//   node --import tsx bench/nlp/tune-word-model.ts [options JSON] [dump file] [folds]
// e.g. '{"word":{"charRange":[2,5]}}' overrides the defaults in server/nlp/intent-model.ts.
// EMBEDDINGS=local adds the sentence embeddings of the provisioned local encoder; MODES=few or
// MODES=full runs one training size only.
import { writeFileSync } from 'node:fs';
import { analyserFor } from '../../server/nlp/language.ts';
import { WORD_MODEL, type IntentModelOptions } from '../../server/nlp/intent-fit.ts';
import { trainIntentModelExplained } from '../../server/nlp/intent-model.ts';
import { DATA_SETS, readDataSet } from './data.ts';
import { cvFolds } from './cv-folds.ts';
import { benchEncoder, embedAll } from './embed-sets.ts';

const given = JSON.parse(process.argv[2] ?? '{}') as IntentModelOptions;
const options: IntentModelOptions = { ...given, word: { ...WORD_MODEL, ...given.word } };
const encoder = process.env.EMBEDDINGS === 'local' ? await benchEncoder() : undefined;
if (encoder && 'reason' in encoder) throw new Error(encoder.reason);
const dumpFile = process.argv[3];
const folds = Number(process.argv[4] ?? 4);
/** The definition's default threshold (nlpThreshold). */
const THRESHOLD = 0.7;

const rows: unknown[] = [];
console.log(
  `options ${JSON.stringify(options)}, ${folds} folds${encoder ? `, embeddings ${encoder.provider.modelId}` : ''}`,
);
for (const name of DATA_SETS) {
  const set = readDataSet(name);
  if (!set) {
    console.log(`${name}: no data, skipped`);
    continue;
  }
  const embedded = encoder
    ? await embedAll(
        encoder.provider,
        set.train.map((e) => e.text),
      )
    : undefined;
  for (const mode of (process.env.MODES ?? 'few,full').split(',') as ('few' | 'full')[]) {
    let right = 0;
    let total = 0;
    let ranked = 0;
    let routed = 0;
    let oos = 0;
    let turnedAway = 0;
    let cpu = 0;
    cvFolds(set.train, mode, folds).forEach(({ train, queries }, fold) => {
      const c0 = process.cpuUsage();
      const embeddings = embedded ? train.map((e) => embedded.get(e.text) as Float32Array) : undefined;
      const model = trainIntentModelExplained(train, analyserFor('en'), { ...options, embeddings });
      cpu += process.cpuUsage(c0).user / 1e6;
      const space = embeddings
        ? embeddingSpace(
            train.map((e) => e.label),
            embeddings,
          )
        : undefined;
      for (const q of queries) {
        const x = model.explain(q.text, embedded?.get(q.text));
        const p = model.predict(q.text, embedded?.get(q.text));
        const passes = p.label !== null && p.score >= THRESHOLD;
        if (!q.oos) {
          total++;
          if (x?.label === q.intent) right++;
          if (p.label === q.intent) ranked++;
          if (passes && p.label === q.intent) routed++;
        } else {
          oos++;
          if (!passes) turnedAway++;
        }
        const v = embedded?.get(q.text);
        if (dumpFile)
          rows.push({
            set: name,
            mode,
            fold,
            oos: q.oos,
            ok: x?.label === q.intent,
            ...x,
            ...(space && v && x ? space(v, x.label) : {}),
          });
      }
    });
    const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)} %`;
    console.log(
      `${name} ${mode}: top-1 ${pct(right, total)} of ${total} (by score ${pct(ranked, total)}), in scope at ${THRESHOLD} ${pct(routed, total)}, out-of-scope recall ${pct(turnedAway, oos)}, training ${(cpu / folds).toFixed(2)} s CPU a fold`,
    );
  }
}
if (dumpFile) writeFileSync(dumpFile, JSON.stringify(rows));

/** Features of a query in embedding space beside the model's: cosine to the label's prototype (mean example), the share of its 10 nearest examples that carry the label, the nearest example of any label. */
function embeddingSpace(
  labels: readonly string[],
  vectors: readonly Float32Array[],
): (v: Float32Array, label: string) => Record<string, number> {
  const dims = vectors[0]?.length ?? 0;
  const sums = new Map<string, Float64Array>();
  vectors.forEach((x, i) => {
    const label = labels[i] as string;
    const sum = sums.get(label) ?? new Float64Array(dims);
    for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) + (x[d] as number);
    sums.set(label, sum);
  });
  for (const sum of sums.values()) {
    const norm = Math.hypot(...sum) || 1;
    for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) / norm;
  }
  const cos = (a: Float32Array, b: ArrayLike<number>): number => {
    let s = 0;
    for (let d = 0; d < dims; d++) s += (a[d] as number) * (b[d] as number);
    return s;
  };
  return (v, label) => {
    const sims = vectors.map((x, i) => ({ s: cos(v, x), label: labels[i] as string })).sort((a, b) => b.s - a.s);
    const protos = [...sums].map(([l, c]) => ({ l, s: cos(v, c) })).sort((a, b) => b.s - a.s);
    const own = protos.find((p) => p.l === label)?.s ?? 0;
    const otherProto = protos.find((p) => p.l !== label)?.s ?? 0;
    return {
      proto: own,
      protoMargin: own - otherProto,
      protoTop: protos[0]?.l === label ? 1 : 0,
      knn: sims.slice(0, 10).filter((x) => x.label === label).length / 10,
      nearestAny: sims[0]?.s ?? 0,
      nearestAnySame: sims[0]?.label === label ? 1 : 0,
    };
  };
}
