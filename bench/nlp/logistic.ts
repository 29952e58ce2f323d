// A logistic regression over a handful of features, fitted by Newton's method: the score
// calibrations (bench/nlp/fit-score.ts, bench/nlp/tune-faq.ts) are fitted with it.
/** Logistic regression by Newton's method (a handful of features), with a small ridge. */
export function fitLogistic(allXs: readonly number[][], allYs: readonly number[], ridge = 1e-3): number[] {
  const keep = allXs.map((x) => !x.some(Number.isNaN));
  const xs = allXs.filter((_, i) => keep[i]);
  const ys = allYs.filter((_, i) => keep[i]);
  const d = (xs[0]?.length ?? 0) + 1;
  const w = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < 30; iteration++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    xs.forEach((x0, n) => {
      const x = [...x0, 1];
      const z = x.reduce((s, v, i) => s + v * (w[i] as number), 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let i = 0; i < d; i++) {
        g[i] = (g[i] as number) + (p - (ys[n] as number)) * (x[i] as number);
        for (let j = 0; j < d; j++)
          (h[i] as number[])[j] = ((h[i] as number[])[j] as number) + p * (1 - p) * (x[i] as number) * (x[j] as number);
      }
    });
    for (let i = 0; i < d - 1; i++) {
      g[i] = (g[i] as number) + ridge * xs.length * (w[i] as number);
      (h[i] as number[])[i] = ((h[i] as number[])[i] as number) + ridge * xs.length;
    }
    const step = solve(h, g);
    let moved = 0;
    for (let i = 0; i < d; i++) {
      w[i] = (w[i] as number) - (step[i] as number);
      moved = Math.max(moved, Math.abs(step[i] as number));
    }
    if (moved < 1e-8) break;
  }
  return w;
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++)
      if (Math.abs((m[r] as number[])[c] as number) > Math.abs((m[pivot] as number[])[c] as number)) pivot = r;
    [m[c], m[pivot]] = [m[pivot] as number[], m[c] as number[]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = ((m[r] as number[])[c] as number) / ((m[c] as number[])[c] as number);
      for (let k = c; k <= n; k++)
        (m[r] as number[])[k] = ((m[r] as number[])[k] as number) - f * ((m[c] as number[])[k] as number);
    }
  }
  return m.map((row, i) => (row[n] as number) / (row[i] as number));
}

export const score = (w: readonly number[], x: readonly number[]): number =>
  x.some(Number.isNaN) ? -Infinity : x.reduce((s, v, i) => s + v * (w[i] as number), w[w.length - 1] as number);
