// Measures the misses' grouping (server/studio-server/insights/miss-groups.ts) on the TEST splits of both
// public sets, with and without typo folding: the bot knows the first five training sentences of
// each intent; the inputs are the first six test sentences of each intent, and each also once with
// a typo in its longest content word (two inner letters swapped, or one dropped, in turn). For each
// similarity cut it prints: the share of (input, its typo) pairs that would join; the share of
// pairs of inputs of one intent that would join (the grouping one wants); the share of pairs of
// inputs of different intents that would join (false groups). The figures are quoted at
// GROUP_SIMILARITY.
//   node --import tsx bench/nlp/misses-typos.ts
import { dot } from '../../server/nlp/features.ts';
import { analyserFor } from '../../server/nlp/language.ts';
import { likenessVectors } from '../../server/studio-server/insights/miss-groups.ts';
import { teachableOf } from '../../server/studio-server/insights/teachable.ts';
import { MIN_LENGTH } from '../../server/studio-server/insights/typo-words.ts';
import { DATA_SETS, readDataSet, type Example } from './data.ts';

const CUTS = [0.3, 0.35, 0.4, 0.45, 0.5];
const analyser = analyserFor('en');

function firstPerIntent(examples: readonly Example[], n: number): Example[] {
  const seen = new Map<string, number>();
  return examples.filter((e) => {
    const k = seen.get(e.intent) ?? 0;
    seen.set(e.intent, k + 1);
    return k < n;
  });
}

/** The text with a typo in its longest content word, or null when it has none long enough. */
function typo(text: string, i: number): string | null {
  const words = analyser.words(text).filter((w) => !analyser.isStopword(w) && /^\p{L}+$/u.test(w));
  const word = words.sort((a, b) => b.length - a.length)[0];
  if (!word || word.length < MIN_LENGTH) return null;
  const at = Math.floor(word.length / 2);
  const wrong =
    i % 2 === 0
      ? word.slice(0, at - 1) + word[at] + word[at - 1] + word.slice(at + 1)
      : word.slice(0, at) + word.slice(at + 1);
  if (wrong === word) return null;
  return text.toLowerCase().replace(word, wrong);
}

for (const name of DATA_SETS) {
  const set = readDataSet(name);
  if (!set) {
    console.log(`${name}: not found, skipped`);
    continue;
  }
  const bot = firstPerIntent(set.train, 5);
  const byIntent = new Map<string, string[]>();
  for (const e of bot) byIntent.set(e.intent, [...(byIntent.get(e.intent) ?? []), e.text]);
  const definition = teachableOf({
    intents: [...byIntent].map(([id, utterances]) => ({ id: id.slice(0, 64), utterances })),
    faq: [],
  });
  const inputs = firstPerIntent(set.test, 6);
  const typos = inputs.map((e, i) => typo(e.text, i));
  const texts = [...inputs.map((e) => e.text), ...typos.flatMap((t) => (t ? [t] : []))].map((text) => ({
    text,
    count: 1,
  }));
  for (const fold of [false, true]) {
    const started = process.cpuUsage();
    const vectors = likenessVectors(texts, definition, { foldTypos: fold });
    const cpu = process.cpuUsage(started);
    const typoSims: number[] = [];
    let t = inputs.length;
    inputs.forEach((_, i) => {
      if (typos[i]) typoSims.push(dot(vectors[i]!, vectors[t++]!));
    });
    const same: number[] = [];
    const other: number[] = [];
    for (let i = 0; i < inputs.length; i++)
      for (let j = i + 1; j < inputs.length; j++)
        (inputs[i]!.intent === inputs[j]!.intent ? same : other).push(dot(vectors[i]!, vectors[j]!));
    const share = (xs: number[], cut: number) =>
      `${((100 * xs.filter((x) => x >= cut).length) / xs.length).toFixed(1)} %`;
    console.log(
      `${name} ${fold ? 'typos folded' : 'words as typed'} (${texts.length} texts, ${typoSims.length} typo pairs, ${same.length} same-intent and ${other.length} other pairs; vectors in ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU)`,
    );
    for (const cut of CUTS)
      console.log(
        `  cut ${cut}: typo pairs join ${share(typoSims, cut)}, same intent ${share(same, cut)}, different intents ${share(other, cut)}`,
      );
  }
}
