import Fuse from 'fuse.js';
import type { FaqPair } from '../definition/schema.ts';
import type { FaqMatch, FaqMatcher } from '../ports/understanding.ts';

/**
 * Fuzzy FAQ matching with Fuse.js (Bitap over every phrasing of every
 * question). Fuse scores 0 = exact … 1 = nothing alike; we report 1 - score,
 * best pair first, one entry per pair.
 */
export function createFaqMatcher(pairs: readonly FaqPair[]): FaqMatcher {
  const docs = pairs.flatMap((pair) => pair.questions.map((question) => ({ id: pair.id, question })));
  const fuse = new Fuse(docs, { keys: ['question'], includeScore: true, ignoreLocation: true, threshold: 0.6, minMatchCharLength: 2 });
  return {
    match(text): FaqMatch {
      const best = new Map<string, number>();
      for (const hit of fuse.search(text.slice(0, 500), { limit: 20 })) {
        const score = Math.round((1 - (hit.score ?? 1)) * 10_000) / 10_000;
        if ((best.get(hit.item.id) ?? -1) < score) best.set(hit.item.id, score);
      }
      const ranked = [...best.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
      const [top, ...others] = ranked;
      return top ? { id: top.id, score: top.score, others: others.slice(0, 5) } : { id: null, score: 0, others: [] };
    },
  };
}
