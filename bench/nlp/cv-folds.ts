// Cross-validation folds on the TRAINING split of a public set (never its test split): inside the
// intents the benchmark trains, a quarter at a time is held out as pseudo out-of-scope, and training
// sentences the model did not see are the queries.
import { heldOut, intentsOf, type Example } from './data.ts';

export interface CvQuery {
  readonly text: string;
  readonly intent: string;
  readonly oos: boolean;
}

/** The folds' training sets and queries, for 10 per intent ("few") or three quarters of each intent ("full"). */
export function cvFolds(
  train: readonly Example[],
  mode: 'few' | 'full',
  count: number,
): { train: { text: string; label: string }[]; queries: CvQuery[] }[] {
  const all = intentsOf(train);
  const held = heldOut(all);
  const inScope = all.filter((i) => !held.has(i));
  const out = [];
  for (let fold = 0; fold < count; fold++) {
    const pseudo = new Set(inScope.filter((_, i) => i % 4 === fold % 4));
    const seen = new Map<string, number>();
    const trainSet: { text: string; label: string }[] = [];
    const queries: CvQuery[] = [];
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
    out.push({ train: trainSet, queries });
  }
  return out;
}
