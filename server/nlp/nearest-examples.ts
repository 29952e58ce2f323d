import type { SparseVector } from './features.ts';

/**
 * Each label's examples as content-word vectors, packed label by label, for the evidence part
 * of the intent score: a text's cosine to a label's nearest example. A turn asks this for the
 * few labels it ranks, and a label may have a hundred examples or more, so the text is spread
 * once over a dense array and every example reads its own word parts from there: no walking of
 * two index lists side by side, no allocation. The sums are the very ones `dot` makes (the same
 * products in the same order; word parts the text lacks add 0).
 */
export interface NearestExamples {
  /** For each label asked for, the cosine to its nearest example (0 when none shares a word part with the text). */
  nearest(x: SparseVector, labels: readonly number[]): number[];
}

export function indexExamples(groups: readonly (readonly SparseVector[])[], size: number): NearestExamples {
  const starts: Int32Array[] = [];
  const indices: Int32Array[] = [];
  const values: Float32Array[] = [];
  for (const group of groups) {
    const total = group.reduce((sum, v) => sum + v.indices.length, 0);
    const start = new Int32Array(group.length + 1);
    const index = new Int32Array(total);
    const value = new Float32Array(total);
    let at = 0;
    group.forEach((v, e) => {
      start[e] = at;
      index.set(v.indices, at);
      value.set(v.values, at);
      at += v.indices.length;
    });
    start[group.length] = at;
    starts.push(start);
    indices.push(index);
    values.push(value);
  }
  const text = new Float64Array(size);
  return {
    nearest(x, labels) {
      for (let k = 0; k < x.indices.length; k++) text[x.indices[k] as number] = x.values[k] as number;
      const out = labels.map((c) => {
        const start = starts[c];
        const index = indices[c] as Int32Array;
        const value = values[c] as Float32Array;
        if (!start) return 0;
        let best = 0;
        for (let e = 0; e + 1 < start.length; e++) {
          let sum = 0;
          for (let k = start[e] as number; k < (start[e + 1] as number); k++)
            sum += (text[index[k] as number] as number) * (value[k] as number);
          if (sum > best) best = sum;
        }
        return best;
      });
      for (let k = 0; k < x.indices.length; k++) text[x.indices[k] as number] = 0;
      return out;
    },
  };
}
