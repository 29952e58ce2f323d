import { softmaxInPlace } from './linear-model.ts';
import { inputs, mostProbable, probabilities, type FittedIntents } from './intent-fit.ts';

/** What the score is made of, for tuning the constants on a data set's training split. */
export interface IntentEvidence {
  readonly label: string;
  /** Probabilities of the best and second best label (fused when embeddings took part). */
  readonly p1: number;
  readonly p2: number;
  /** Content-word cosine to the best label's nearest example, and that label's typical value. */
  readonly nearest: number;
  readonly typical: number;
  /** The same in embedding space (absent without embeddings). */
  readonly nearestEmbedded?: number;
  readonly typicalEmbedded?: number;
  /** The word model's own probability of the best label, and whether its own best label is the same. */
  readonly pWord?: number;
  readonly wordAgrees?: boolean;
  /** The embedding head's own probability of the best label, and whether its own best label is the same. */
  readonly pHead?: number;
  readonly headAgrees?: boolean;
  /** The five most probable labels' probabilities, content-word evidence (nearest / typical) and, with embeddings, embedded evidence. */
  readonly pTop?: readonly number[];
  readonly evidenceTop?: readonly number[];
  readonly evidenceEmbeddedTop?: readonly number[];
  /** Entropy of the whole distribution (nats). */
  readonly entropy?: number;
}

/** What the score of `text`'s best label is made of; null when there is nothing to predict from. */
export function explainIntent(
  fitted: FittedIntents,
  text: string,
  embedding: Float32Array | null | undefined,
): IntentEvidence | null {
  const { labels, model, head, contentVectoriser, typical, examplesByLabel } = fitted;
  const input = inputs(fitted, text, embedding);
  if (!input) return null;
  const p = probabilities(fitted, input.x, input.v);
  let a = 0;
  let b = -1;
  for (let c = 1; c < p.length; c++) {
    if ((p[c] as number) > (p[a] as number)) {
      b = a;
      a = c;
    } else if (b < 0 || (p[c] as number) > (p[b] as number)) b = c;
  }
  const content = contentVectoriser.vector(text);
  const w = model.logits(input.x);
  softmaxInPlace(w);
  const argmax = (v: Float64Array): number => v.reduce((best, value, c) => (value > (v[best] as number) ? c : best), 0);
  let extra = {};
  if (head && input.v) {
    const e = head.logits(input.v);
    softmaxInPlace(e);
    extra = { pHead: e[a] as number, headAgrees: argmax(e) === a };
  }
  const order = mostProbable(fitted, p);
  const nearestTop = examplesByLabel.nearest(content, order);
  let entropy = 0;
  for (const q of p) if (q > 0) entropy -= q * Math.log(q);
  return {
    pTop: order.map((c) => p[c] as number),
    evidenceTop: order.map((c, i) => (nearestTop[i] as number) / (typical[c] as number)),
    ...(head && input.v
      ? {
          evidenceEmbeddedTop: order.map((c) => head.nearest(input.v as Float32Array, c) / (head.typical[c] as number)),
        }
      : {}),
    entropy,
    pWord: w[a] as number,
    wordAgrees: argmax(w) === a,
    ...extra,
    label: labels[a] as string,
    p1: p[a] as number,
    p2: b < 0 ? 0 : (p[b] as number),
    nearest: examplesByLabel.nearest(content, [a])[0] as number,
    typical: typical[a] as number,
    ...(head && input.v
      ? { nearestEmbedded: head.nearest(input.v, a), typicalEmbedded: head.typical[a] as number }
      : {}),
  };
}
