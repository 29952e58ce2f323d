// Dumps what the intent score is made of, on BANKING77's training split only: inside the 57
// trained intents, a quarter more are held out as pseudo out-of-scope, and training examples
// the model did not see are the queries. Used to choose the score's constants without the test split.
import { writeFileSync } from 'node:fs';
import { analyserFor } from '../../server/nlp/language.ts';
import { trainIntentModelExplained } from '../../server/nlp/intent-model.ts';
import { heldOut, intentsOf, readSplit } from './data.ts';

const train = readSplit('train');
const all = intentsOf(train);
const held = heldOut(all);
const inScope = all.filter((i) => !held.has(i));
const rows: unknown[] = [];
for (const mode of ['few', 'full'] as const) {
  for (let fold = 0; fold < 4; fold++) {
    const pseudo = new Set(inScope.filter((_, i) => i % 4 === fold));
    const seen = new Map<string, number>();
    const trainSet: { text: string; label: string }[] = [];
    const queries: { text: string; intent: string; oos: boolean }[] = [];
    for (const e of train) {
      if (held.has(e.intent)) continue;
      const n = seen.get(e.intent) ?? 0;
      seen.set(e.intent, n + 1);
      if (pseudo.has(e.intent)) {
        if (n % 3 === 0) queries.push({ text: e.text, intent: e.intent, oos: true });
        continue;
      }
      const isTrain = mode === 'few' ? n < 10 : n % 4 !== 0;
      if (isTrain) trainSet.push({ text: e.text, label: e.intent });
      else if (mode === 'full' || n % 3 === 0) queries.push({ text: e.text, intent: e.intent, oos: false });
    }
    const model = trainIntentModelExplained(trainSet, analyserFor('en'));
    for (const q of queries) {
      const x = model.explain(q.text);
      rows.push({ mode, fold, oos: q.oos, ok: x?.label === q.intent, ...x });
    }
    console.log(mode, fold, trainSet.length, queries.length);
  }
}
writeFileSync(process.argv[2] ?? '/tmp/nlp2/dump.json', JSON.stringify(rows));
