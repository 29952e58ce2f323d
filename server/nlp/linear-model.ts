import type { SparseVector } from './features.ts';

/**
 * Multinomial logistic regression over sparse features, trained by stochastic
 * gradient descent with L2 regularisation. Deterministic: the shuffle is
 * seeded, so one definition always trains one model.
 */
export interface LinearModel {
  readonly classes: number;
  /** Raw class scores (logits) for a vector. */
  logits(x: SparseVector): Float64Array;
}

export interface TrainOptions {
  readonly epochs?: number;
  readonly learningRate?: number;
  readonly l2?: number;
}

export function trainSoftmax(
  xs: readonly SparseVector[],
  ys: readonly number[],
  classes: number,
  features: number,
  options: TrainOptions = {},
): LinearModel {
  // Feature by feature: the weights of one feature for all classes lie side by side.
  const weights = new Float64Array(features * classes);
  const bias = trainSgd(xs, ys, classes, weights, options, {
    scores: (x, bias, scale, out) => scores(x, weights, bias, scale, classes, out),
    step(x, active, steps, m) {
      for (let k = 0; k < x.indices.length; k++) {
        const base = (x.indices[k] as number) * classes;
        const v = x.values[k] as number;
        // Four at a time: each weight is its own sum, so the arithmetic is the same, with fewer loop turns.
        let j = 0;
        for (; j + 3 < m; j += 4) {
          const a0 = base + (active[j] as number);
          const a1 = base + (active[j + 1] as number);
          const a2 = base + (active[j + 2] as number);
          const a3 = base + (active[j + 3] as number);
          weights[a0] = (weights[a0] as number) - (steps[j] as number) * v;
          weights[a1] = (weights[a1] as number) - (steps[j + 1] as number) * v;
          weights[a2] = (weights[a2] as number) - (steps[j + 2] as number) * v;
          weights[a3] = (weights[a3] as number) - (steps[j + 3] as number) * v;
        }
        for (; j < m; j++) {
          const at = base + (active[j] as number);
          weights[at] = (weights[at] as number) - (steps[j] as number) * v;
        }
      }
    },
  });
  return {
    classes,
    logits(x) {
      const out = new Float64Array(classes);
      scores(x, weights, bias, 1, classes, out);
      return out;
    },
  };
}

/** How one model lays out its weights: the SGD below reads and moves them only through this. */
export interface WeightLayout<X> {
  /** Each class's bias plus its weights, times `scale`, times the input, into `out`. */
  scores(x: X, bias: Float64Array, scale: number, out: Float64Array): void;
  /** The weights of classes `active[0..m)` less `steps[j]` times the input. */
  step(x: X, active: Int32Array, steps: Float64Array, m: number): void;
}

/**
 * The seeded stochastic gradient descent both layouts share (sparse word features here, dense
 * embeddings in dense-model.ts), so one definition always trains one model; returns the biases.
 * `weights` (zeros) is trained in place.
 */
export function trainSgd<X>(
  xs: readonly X[],
  ys: readonly number[],
  classes: number,
  weights: Float64Array,
  options: TrainOptions,
  layout: WeightLayout<X>,
): Float64Array {
  const epochs = options.epochs ?? 30;
  const rate0 = options.learningRate ?? 0.5;
  const l2 = options.l2 ?? 1e-4;
  const bias = new Float64Array(classes);
  // Weight decay as one shared scale factor: an update touches only what a sample moves.
  let scale = 1;
  const order = xs.map((_, i) => i);
  const random = seeded(7);
  const p = new Float64Array(classes);
  const active = new Int32Array(classes);
  const steps = new Float64Array(classes);
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    for (const n of order) {
      const x = xs[n] as X;
      const y = ys[n] as number;
      const rate = rate0 / (1 + rate0 * l2 * step++);
      layout.scores(x, bias, scale, p);
      softmaxInPlace(p);
      scale *= 1 - rate * l2;
      if (scale < 1e-6) {
        for (let i = 0; i < weights.length; i++) weights[i] = (weights[i] as number) * scale;
        scale = 1;
      }
      let m = 0;
      for (let c = 0; c < classes; c++) {
        const g = (p[c] as number) - (c === y ? 1 : 0);
        // Classes the model already rules out for this sample barely move: skipping them makes an epoch several times faster.
        if (g > -1e-4 && g < 1e-4) continue;
        bias[c] = (bias[c] as number) - rate * g * 0.1;
        active[m] = c;
        steps[m++] = (rate * g) / scale;
      }
      layout.step(x, active, steps, m);
    }
  }
  for (let i = 0; i < weights.length; i++) weights[i] = (weights[i] as number) * scale;
  return bias;
}

function scores(
  x: SparseVector,
  weights: Float64Array,
  bias: Float64Array,
  scale: number,
  classes: number,
  out: Float64Array,
): void {
  for (let c = 0; c < classes; c++) out[c] = bias[c] as number;
  for (let k = 0; k < x.indices.length; k++) {
    const base = (x.indices[k] as number) * classes;
    const v = (x.values[k] as number) * scale;
    let c = 0;
    for (; c + 3 < classes; c += 4) {
      out[c] = (out[c] as number) + (weights[base + c] as number) * v;
      out[c + 1] = (out[c + 1] as number) + (weights[base + c + 1] as number) * v;
      out[c + 2] = (out[c + 2] as number) + (weights[base + c + 2] as number) * v;
      out[c + 3] = (out[c + 3] as number) + (weights[base + c + 3] as number) * v;
    }
    for (; c < classes; c++) out[c] = (out[c] as number) + (weights[base + c] as number) * v;
  }
}

export function softmaxInPlace(z: Float64Array, temperature = 1): void {
  let max = -Infinity;
  for (const v of z) if (v > max) max = v;
  let sum = 0;
  for (let c = 0; c < z.length; c++) {
    const e = Math.exp(((z[c] as number) - max) / temperature);
    z[c] = e;
    sum += e;
  }
  for (let c = 0; c < z.length; c++) z[c] = (z[c] as number) / sum;
}

export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle(list: number[], random: () => number): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as number, list[i] as number];
  }
}
