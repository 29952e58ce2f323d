import { trainSgd, type TrainOptions } from './linear-model.ts';

/**
 * The multinomial logistic regression of linear-model.ts, for dense inputs (sentence
 * embeddings): the same seeded SGD (`trainSgd`), so it learns the very same weights, but laid
 * out class by class. Every input touches every weight of
 * each class it updates, so one class's weights side by side make both the scores and
 * the updates run over contiguous memory, with no index lists: several times faster
 * than the sparse layout on 384 dimensions × 150 intents, which decides how long a start
 * with embeddings takes (bench/nlp-understanding.ts startup).
 */
export interface DenseLinearModel {
  readonly classes: number;
  /** Raw class scores (logits) for a vector of `dimensions` values. */
  logits(x: Float32Array): Float64Array;
}

export function trainDenseSoftmax(
  xs: readonly Float32Array[],
  ys: readonly number[],
  classes: number,
  dimensions: number,
  options: TrainOptions = {},
): DenseLinearModel {
  const weights = new Float64Array(classes * dimensions);
  const scaled = new Float64Array(dimensions);
  const bias = trainSgd(xs, ys, classes, weights, options, {
    scores(x, bias, scale, out) {
      for (let k = 0; k < dimensions; k++) scaled[k] = (x[k] as number) * scale;
      scores(scaled, weights, bias, classes, dimensions, out);
    },
    step(x, active, steps, m) {
      for (let j = 0; j < m; j++) {
        const base = (active[j] as number) * dimensions;
        const s = steps[j] as number;
        let k = 0;
        // Four at a time: each weight is its own sum, so this is the same arithmetic, only fewer loop turns.
        for (; k + 3 < dimensions; k += 4) {
          weights[base + k] = (weights[base + k] as number) - s * (x[k] as number);
          weights[base + k + 1] = (weights[base + k + 1] as number) - s * (x[k + 1] as number);
          weights[base + k + 2] = (weights[base + k + 2] as number) - s * (x[k + 2] as number);
          weights[base + k + 3] = (weights[base + k + 3] as number) - s * (x[k + 3] as number);
        }
        for (; k < dimensions; k++) weights[base + k] = (weights[base + k] as number) - s * (x[k] as number);
      }
    },
  });
  const unscaled = new Float64Array(dimensions);
  return {
    classes,
    logits(x) {
      const out = new Float64Array(classes);
      for (let k = 0; k < dimensions; k++) unscaled[k] = x[k] as number;
      scores(unscaled, weights, bias, classes, dimensions, out);
      return out;
    },
  };
}

/**
 * Each class's bias plus its weights times the input. Four running sums instead of one: one sum
 * waits for each addition to finish before the next, four keep the processor busy. (The order of
 * the additions differs from the sparse model's, so the last bits of a score may too.)
 */
function scores(
  x: Float64Array,
  weights: Float64Array,
  bias: Float64Array,
  classes: number,
  dimensions: number,
  out: Float64Array,
): void {
  for (let c = 0; c < classes; c++) {
    const base = c * dimensions;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let k = 0;
    for (; k + 3 < dimensions; k += 4) {
      s0 += (weights[base + k] as number) * (x[k] as number);
      s1 += (weights[base + k + 1] as number) * (x[k + 1] as number);
      s2 += (weights[base + k + 2] as number) * (x[k + 2] as number);
      s3 += (weights[base + k + 3] as number) * (x[k + 3] as number);
    }
    for (; k < dimensions; k++) s0 += (weights[base + k] as number) * (x[k] as number);
    out[c] = (bias[c] as number) + (s0 + s1 + s2 + s3);
  }
}
