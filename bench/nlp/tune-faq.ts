// Chooses the FAQ matcher's constants on the TRAINING splits of both public sets: entries are the
// first one (or five) training sentences of each trained intent, queries are later training
// sentences of those intents, and the training sentences of the twenty held-out intents are the
// out-of-scope questions. For each share of the embedding cosine, prints the similarity cut that
// keeps false answers at 8 % on both sets and what it answers right; the default threshold 0.6
// then sits at that cut (server/nlp/faq-matcher.ts maps floor..full onto 0..1).
//   node --import tsx bench/nlp/tune-faq.ts            (words + the provisioned local encoder)
import { prepareFaqMatcher } from '../../server/nlp/faq-matcher.ts';
import { DATA_SETS, heldOut, intentsOf, readDataSet } from './data.ts';
import { benchEncoder, embedAll } from './embed-sets.ts';

const encoder = await benchEncoder();
if ('reason' in encoder) throw new Error(encoder.reason);
const cached = { modelId: encoder.provider.modelId, embed: (t: readonly string[]) => encoder.provider.embed(t, 'batch'), close: async () => {} };
const FALSE_RATE = Number(process.env.FALSE_RATE ?? 0.08);

for (const phrasings of [1, 5]) {
  for (const share of [0, 0.5, 0.6, 0.7, 0.8, 0.9, 1]) {
    const results: { name: string; inScope: { right: boolean; s: number }[]; oos: number[] }[] = [];
    for (const name of DATA_SETS) {
      const set = readDataSet(name);
      if (!set) continue;
      const held = heldOut(intentsOf(set.train));
      await embedAll(cached, set.train.map((e) => e.text));
      const seen = new Map<string, number>();
      const entries = new Map<string, string[]>();
      const queries: { text: string; intent: string; oos: boolean }[] = [];
      for (const e of set.train) {
        const n = seen.get(e.intent) ?? 0;
        seen.set(e.intent, n + 1);
        if (held.has(e.intent)) {
          if (n % 3 === 0) queries.push({ ...e, oos: true });
        } else if (n < phrasings) entries.set(e.intent, [...(entries.get(e.intent) ?? []), e.text]);
        else if (n % 3 === 0) queries.push({ ...e, oos: false });
      }
      const pairs = [...entries].map(([id, questions]) => ({ id: id.replace(/[^\w-]/g, ''), questions, answer: id }));
      const score = { embeddingShare: share, floor: 0, full: 1 };
      const matcher = await prepareFaqMatcher(pairs, share > 0 ? { embeddings: cached, embeddedScore: score } : { wordScore: score });
      const r = { name, inScope: [] as { right: boolean; s: number }[], oos: [] as number[] };
      for (const q of queries) {
        const m = await matcher.match(q.text);
        if (q.oos) r.oos.push(m.score);
        else r.inScope.push({ right: m.id === q.intent.replace(/[^\w-]/g, ''), s: m.score });
      }
      results.push(r);
    }
    // The cut where each set answers FALSE_RATE of its out-of-scope questions; the higher of the two serves both.
    const cut = Math.max(...results.map((r) => [...r.oos].sort((a, b) => b - a)[Math.floor(r.oos.length * FALSE_RATE)] as number));
    const line = results.map((r) => `${r.name} right ${((100 * r.inScope.filter((q) => q.right && q.s >= cut).length) / r.inScope.length).toFixed(1)} %, false ${((100 * r.oos.filter((s) => s >= cut).length) / r.oos.length).toFixed(1)} %, top-1 ${((100 * r.inScope.filter((q) => q.right).length) / r.inScope.length).toFixed(1)} %`);
    console.log(`${phrasings} phrasing(s), embedding share ${share}: cut ${cut.toFixed(3)}: ${line.join('; ')}`);
  }
}
