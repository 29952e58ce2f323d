import { describe, expect, it } from 'vitest';
import { trainDenseSoftmax } from './dense-model.ts';
import { dot, fitVectoriser } from './features.ts';
import { analyserFor } from './language.ts';
import { trainSoftmax } from './linear-model.ts';
import { indexExamples } from './nearest-examples.ts';

// The faster layouts must decide exactly as the plain ones did: a bot's routing may not move
// because its start got quicker.
const random = (seed: number): (() => number) => {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
};

describe('the dense embedding head', () => {
  it('when trained on sentence-embedding-like vectors, then its scores are those of the sparse model with every dimension listed', () => {
    const next = random(3);
    const dimensions = 37; // not a multiple of four: the tail of the unrolled loops counts too
    const classes = 6;
    const xs = Array.from({ length: 90 }, () => Float32Array.from({ length: dimensions }, () => next() - 0.5));
    const ys = xs.map((_, i) => i % classes);
    const options = { epochs: 5, learningRate: 1, l2: 1e-5 };
    const dense = trainDenseSoftmax(xs, ys, classes, dimensions, options);
    const indices = Int32Array.from({ length: dimensions }, (_, i) => i);
    const sparse = trainSoftmax(
      xs.map((values) => ({ indices, values })),
      ys,
      classes,
      dimensions,
      options,
    );
    for (const x of xs.slice(0, 20)) {
      const a = dense.logits(x);
      const b = sparse.logits({ indices, values: x });
      for (let c = 0; c < classes; c++) expect(a[c]).toBeCloseTo(b[c] as number, 9);
    }
  });
});

describe('the nearest example of a label', () => {
  it("when a text is compared with each label's examples, then the cosine to the nearest one is the one a plain dot product gives", () => {
    const texts = [
      'I lost my card',
      'my card was stolen',
      'card missing',
      'how do I top up',
      'top up by bank transfer',
      'add money to my account',
      'where is my refund',
    ];
    const labels = [0, 0, 0, 1, 1, 1, 2];
    const vectoriser = fitVectoriser(texts, analyserFor('en'));
    const vectors = texts.map((t) => vectoriser.vector(t));
    const groups = [0, 1, 2].map((c) => vectors.filter((_, i) => labels[i] === c));
    const index = indexExamples(groups, vectoriser.size);
    for (const query of ['someone stole my card', 'top up money', 'refund please', 'nothing known here']) {
      const x = vectoriser.vector(query);
      const expected = groups.map((group) => group.reduce((best, e) => Math.max(best, dot(x, e)), 0));
      expect(index.nearest(x, [0, 1, 2])).toEqual(expected);
      // Asked twice, and for a subset: nothing of the last text stays behind.
      expect(index.nearest(x, [2, 0])).toEqual([expected[2], expected[0]]);
    }
    expect(index.nearest(vectoriser.vector('stolen card'), [0])[0]).toBeGreaterThan(0.3);
  });
});
