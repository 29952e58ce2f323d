// Cross-validation of the word-level intent model on the TRAINING splits of both public sets
// (BANKING77 and HWU64), never their test splits: inside the intents the benchmarks train, a
// quarter at a time is held out as pseudo out-of-scope, and training sentences the model did not
// see are the queries. Prints top-1 per set and training size, and dumps what each score is made
// of (for choosing the score's form and constants) to a JSON file.
//   node --import tsx bench/nlp/tune-word-model.ts [options JSON] [dump file] [folds]
// e.g. '{"word":{"charRange":[2,5]}}' overrides the defaults in server/nlp/intent-model.ts.
// EMBEDDINGS=local adds the sentence embeddings of the provisioned local encoder; MODES=few or
// MODES=full runs one training size only.
import { writeFileSync } from 'node:fs';
import { analyserFor } from '../../server/nlp/language.ts';
import { WORD_MODEL, trainIntentModelExplained, type IntentModelOptions } from '../../server/nlp/intent-model.ts';
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
console.log(`options ${JSON.stringify(options)}, ${folds} folds${encoder ? `, embeddings ${encoder.provider.modelId}` : ''}`);
for (const name of DATA_SETS) {
  const set = readDataSet(name);
  if (!set) {
    console.log(`${name}: no data, skipped`);
    continue;
  }
  const embedded = encoder ? await embedAll(encoder.provider, set.train.map((e) => e.text)) : undefined;
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
        if (dumpFile) rows.push({ set: name, mode, fold, oos: q.oos, ok: x?.label === q.intent, ...x });
      }
    });
    const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)} %`;
    console.log(`${name} ${mode}: top-1 ${pct(right, total)} of ${total} (by score ${pct(ranked, total)}), in scope at ${THRESHOLD} ${pct(routed, total)}, out-of-scope recall ${pct(turnedAway, oos)}, training ${(cpu / folds).toFixed(2)} s CPU a fold`);
  }
}
if (dumpFile) writeFileSync(dumpFile, JSON.stringify(rows));
