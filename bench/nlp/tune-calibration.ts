// Chooses the calibration targets (the share of held-out intents' texts the threshold is placed to
// turn away in a bot's own cross-validation, and of the off-topic sentences) on the TRAINING split of
// one public set only: a bot of the set's first 10 utterances per intent (or, with `full`, three of
// every four of each intent's training utterances), twenty intents held out; queries are the training
// utterances the bot did not get (in scope) and the held-out intents' training utterances (out of
// scope). The benchmark then reports the targets on the other set's test split.
//   node --import tsx bench/nlp/tune-calibration.ts banking77|hwu64 [words|embeddings] [intents|faq|background] [10|full]
import { prepareFaqMatcher } from '../../server/nlp/faq-matcher.ts';
import { trainIntentClassifier } from '../../server/nlp/intent-classifier.ts';
import { WORD_TARGETS } from '../../server/nlp/intent-calibration.ts';
import { FAQ_TARGETS } from '../../server/nlp/faq-calibration.ts';
import type { EmbeddingProvider } from '../../server/ports/embeddings.ts';
import { firstPerIntent, heldOut, intentsOf, readDataSet, type DataSetName, type Example } from './data.ts';
import { benchEncoder, embedAll } from './embed-sets.ts';

const [name = 'banking77', kind = 'words', part = 'intents', size = '10'] = process.argv.slice(2);
const set = readDataSet(name as DataSetName);
if (!set) throw new Error(`no data for ${name}`);
let embeddings: EmbeddingProvider | undefined;
if (kind === 'embeddings') {
  const encoder = await benchEncoder();
  if ('reason' in encoder) throw new Error(encoder.reason);
  const raw = encoder.provider;
  embeddings = { modelId: raw.modelId, embed: (texts) => raw.embed(texts, 'batch'), close: async () => {} };
  await embedAll(
    embeddings,
    set.train.map((e) => e.text),
  );
}
const held = heldOut(intentsOf(set.train));
const nth = new Map<string, number>();
const bot = (
  size === 'full'
    ? set.train.filter((e) => {
        const n = nth.get(e.intent) ?? 0;
        nth.set(e.intent, n + 1);
        return n % 4 !== 3;
      })
    : firstPerIntent(set.train, 10)
).filter((e) => !held.has(e.intent));
const used = new Set(bot.map((e) => e.text));
const every = <T>(list: readonly T[], n: number): T[] =>
  list.filter((_, i) => i % Math.max(1, Math.ceil(list.length / n)) === 0);
const inScope = every(
  set.train.filter((e) => !held.has(e.intent) && !used.has(e.text)),
  1500,
);
const outOfScope = every(
  set.train.filter((e) => held.has(e.intent)),
  800,
);
const group = (examples: readonly Example[]) =>
  intentsOf(examples).map((intent) => ({
    intent,
    texts: examples.filter((e) => e.intent === intent).map((e) => e.text),
  }));

const shares =
  part === 'background'
    ? [0, 0.5, 0.65, 0.8, 0.9]
    : part === 'faq'
      ? [0.9, 0.95, 0.97, 0.99]
      : [0.6, 0.65, 0.7, 0.72, 0.75, 0.8, 0.85, 0.9, 0.95];
for (const share of shares) {
  if (part === 'intents' || part === 'background') {
    const targets =
      part === 'background'
        ? { ...WORD_TARGETS, backgroundRefused: share }
        : { ...WORD_TARGETS, heldOutRefused: share };
    const intents = group(bot).map((g) => ({ id: g.intent, dialog: g.intent, utterances: g.texts }));
    const classifier = await trainIntentClassifier(intents, 'en', {
      embeddings,
      targets: { words: targets, embedded: targets },
    });
    let right = 0;
    let top = 0;
    for (const e of inScope) {
      const c = await classifier.classify(e.text);
      if (c.intent === e.intent) top++;
      if (c.intent === e.intent && c.score >= c.threshold) right++;
    }
    let refused = 0;
    for (const e of outOfScope) {
      const c = await classifier.classify(e.text);
      if (c.score < c.threshold) refused++;
    }
    const cal = embeddings ? classifier.calibration.embedded : classifier.calibration.words;
    console.log(
      `${name} ${kind} ${part} ${size}, target ${share}: threshold ${cal?.threshold}, top-1 ${((100 * top) / inScope.length).toFixed(1)} %, routed ${((100 * right) / inScope.length).toFixed(1)} %, OOS refused ${((100 * refused) / outOfScope.length).toFixed(1)} %`,
    );
  } else {
    for (const phrasings of [1, 10]) {
      const faq = group(firstPerIntent(set.train, phrasings).filter((e) => !held.has(e.intent))).map((g) => ({
        id: g.intent,
        questions: g.texts,
        answer: g.intent,
      }));
      const stored = new Set(faq.flatMap((f) => f.questions));
      const matcher = await prepareFaqMatcher(faq, {
        locale: 'en',
        embeddings,
        targets: { ...FAQ_TARGETS, heldOutRefused: share },
      });
      const asked = inScope.filter((e) => !stored.has(e.text));
      let right = 0;
      let top = 0;
      for (const e of asked) {
        const m = await matcher.match(e.text);
        if (m.id === e.intent) top++;
        if (m.id === e.intent && m.score >= m.threshold) right++;
      }
      let answered = 0;
      for (const e of outOfScope) {
        const m = await matcher.match(e.text);
        if (m.id !== null && m.score >= m.threshold) answered++;
      }
      const cal = embeddings ? matcher.calibration.embedded : matcher.calibration.words;
      console.log(
        `${name} ${kind} FAQ ×${phrasings}, target ${share}: threshold ${cal?.threshold}, top-1 ${((100 * top) / asked.length).toFixed(1)} %, answered right ${((100 * right) / asked.length).toFixed(1)} %, false ${((100 * answered) / outOfScope.length).toFixed(1)} %`,
      );
    }
  }
}
