// Fits the intent score's calibration (server/nlp/intent-score.ts) from what tune-word-model.ts
// dumped on the TRAINING splits of both public sets (never their test splits): a logistic
// regression over a few features of a prediction, whose target is "this query should be answered
// with this label" (in scope and right). For each candidate feature set it prints the lowest cut
// that turns away the wanted share of pseudo out-of-scope queries in EVERY group (set × training
// size), what is routed right then, and the same fitted on one set and applied to the other
// (transfer); for the product's own features, the calibration to paste (the bias puts that cut
// at the default threshold 0.7).
//   MODES=few node --import tsx bench/nlp/tune-word-model.ts '{}' few.json 4   (and MODES=full, EMBEDDINGS=local)
//   [ZERO=1] node --import tsx bench/nlp/fit-score.ts few.json,full.json <words|embedded> [least out-of-scope recall, 0.64]
// The "product + …" candidates add one signal beyond the top probability to the product's features
// (entropy, evidence margins over the next ranked intents, the word evidence with embeddings, and
// the embedding-space features of the dump); docs/understanding.md (fourth round) has the figures.
import { readFileSync } from 'node:fs';
import { DATA_SETS, heldOut, intentsOf, readDataSet } from './data.ts';
import {
  EMBEDDED_SCORE as EMBEDDED_CALIBRATION,
  WORD_SCORE as WORD_CALIBRATION,
  evidenceRamp,
  scoreFeatures,
  type ScoreOptions as Calibration,
} from '../../server/nlp/intent-score.ts';
import type { IntentEvidence } from '../../server/nlp/intent-evidence.ts';
import { fitLogistic, score } from './logistic.ts';

/** The score before this calibration, (probability × evidence ramp)^sharpness, for comparison (its ranking needs no sharpness). */
interface Ramp {
  readonly floor: number;
  readonly cap: number;
}
const WORD_SCORE: Ramp = { floor: 0.3, cap: 1.5 };
const EMBEDDED_SCORE: Ramp = { floor: 0.6, cap: 1 };

interface Row extends Partial<IntentEvidence> {
  readonly set: string;
  readonly mode: string;
  readonly fold: number;
  readonly oos: boolean;
  readonly ok: boolean;
}

const [files = '', kind = 'words', least = '0.64'] = process.argv.slice(2);
if (!files)
  throw new Error('usage: fit-score.ts <dump.json[,dump.json…]> <words|embedded> [least out-of-scope recall]');
const embedded = kind === 'embedded';
const wanted = Number(least);
const rows = files
  .split(',')
  .flatMap((file) => JSON.parse(readFileSync(file, 'utf8')) as Row[])
  .filter((r) => r.p1 !== undefined && (!embedded || r.nearestEmbedded !== undefined));

const ramp = (ratio: number, s: Ramp): number => Math.max(0, Math.min(s.cap, ratio) - s.floor) / (s.cap - s.floor);
/** No evidence at all: the row scores 0 whatever the fit (NaN features mark it; the fit leaves it out). */
const gate = (evidence: number, features: number[]): number[] =>
  evidence > 0 ? features : features.map(() => Number.NaN);
/** Training examples of a row's label in its fold: 10, or three quarters of the intent's training examples (cv-folds.ts). */
const counts = new Map<string, number>();
for (const name of DATA_SETS)
  for (const e of readDataSet(name)?.train ?? [])
    counts.set(`${name} ${e.intent}`, (counts.get(`${name} ${e.intent}`) ?? 0) + 1);
const examplesOf = (r: Row): number =>
  r.mode === 'few' ? 10 : Math.floor(((counts.get(`${r.set} ${r.label}`) ?? 40) * 3) / 4);
/** ZERO=1 (a comma list of feature positions) fits the product with those features left out (their weights come out 0). */
const zeroed = new Set((process.env.ZERO ?? '').split(',').filter(Boolean).map(Number));
const leaveOut = (features: number[]): number[] => features.map((v, i) => (zeroed.has(i) && !Number.isNaN(v) ? 0 : v));
type Extract = (r: Row) => number[];
const safeLog = (x: number): number => Math.log(Math.max(1e-9, x));
const wordEvidence = (r: Row): number => (r.nearest as number) / (r.typical as number);
const embeddedEvidence = (r: Row): number => (r.nearestEmbedded as number) / (r.typicalEmbedded as number);
const evidenceOf = embedded ? embeddedEvidence : wordEvidence;
const calibration = embedded ? EMBEDDED_CALIBRATION : WORD_CALIBRATION;
const previous = embedded ? EMBEDDED_SCORE : WORD_SCORE;
const logP = (r: Row): number => safeLog(r.p1 as number);
const margin = (r: Row): number => Math.min(5, safeLog(r.p1 as number) - safeLog(r.p2 as number));
const rampOf = (r: Row): number => ramp(evidenceOf(r), previous);
const size = (r: Row): number => Math.log(examplesOf(r));

/**
 * Candidates: the product's own features first, then the score before it, then variants. A
 * plain margin (not scaled by the evidence) fitted best here but let "how is my driving"
 * through a bot with two intents, where any text has a large margin.
 */
const candidates: Record<string, Extract> = {
  product: (r) =>
    leaveOut(
      gate(
        evidenceRamp(evidenceOf(r), calibration),
        scoreFeatures(
          { p: r.p1 as number, pOther: r.p2 as number, evidence: evidenceOf(r), examples: examplesOf(r) },
          calibration,
        ),
      ),
    ),
  'previous score (probability × evidence ramp)': (r) => gate(rampOf(r), [safeLog((r.p1 as number) * rampOf(r))]),
  'previous + size': (r) => gate(rampOf(r), [safeLog((r.p1 as number) * rampOf(r)), size(r)]),
  'previous + margin × ramp': (r) => gate(rampOf(r), [safeLog((r.p1 as number) * rampOf(r)), rampOf(r) * margin(r)]),
  'previous + margin + size (unsafe with few intents)': (r) =>
    gate(rampOf(r), [safeLog((r.p1 as number) * rampOf(r)), margin(r), size(r)]),
  'probability only': (r) => [logP(r)],
  'probability + margin + evidence ratio': (r) => [logP(r), margin(r), Math.min(2, evidenceOf(r))],
  'probability + margin + log ramp + size': (r) => gate(rampOf(r), [logP(r), margin(r), safeLog(rampOf(r)), size(r)]),
  '+ raw cosine': (r) => [
    logP(r),
    margin(r),
    Math.min(2, evidenceOf(r)),
    (embedded ? r.nearestEmbedded : r.nearest) as number,
  ],
  '+ agreement of the word model and the embedding head': (r) => [
    logP(r),
    margin(r),
    Math.min(2, evidenceOf(r)),
    r.wordAgrees ? 1 : 0,
    r.headAgrees ? 1 : 0,
  ],
  '+ their own probabilities': (r) => [
    logP(r),
    margin(r),
    Math.min(2, evidenceOf(r)),
    safeLog((r.pWord ?? r.p1) as number),
    safeLog((r.pHead ?? r.p1) as number),
  ],
  // Fourth round: beyond the top probability.
  'product + evidence margin over the next ranked intents': (r) => withProduct(r, [evidenceMargin(r, false)]),
  'product + entropy': (r) => withProduct(r, [r.entropy as number]),
  'product + entropy / log intents': (r) => withProduct(r, [(r.entropy as number) / Math.log(intentsIn(r))]),
  'product + ramp × (entropy − log intents)': (r) =>
    withProduct(r, [evidenceRamp(evidenceOf(r), calibration) * ((r.entropy as number) - Math.log(intentsIn(r)))]),
  'product + ramp × entropy / log intents': (r) =>
    withProduct(r, [(evidenceRamp(evidenceOf(r), calibration) * (r.entropy as number)) / Math.log(intentsIn(r))]),
  'product + ramp × entropy': (r) => withProduct(r, [evidenceRamp(evidenceOf(r), calibration) * (r.entropy as number)]),
  'product + entropy / log intents + word ramp': (r) =>
    withProduct(r, [(r.entropy as number) / Math.log(intentsIn(r)), wordRamp(r)]),
  'product + ramp × entropy + word ramp': (r) =>
    withProduct(r, [evidenceRamp(evidenceOf(r), calibration) * (r.entropy as number), wordRamp(r)]),
  'product + word evidence ramp (embedded)': (r) => withProduct(r, [wordRamp(r)]),
  'product + embedded evidence margin': (r) => withProduct(r, [evidenceMargin(r, true)]),
  'product + prototype cosine': (r) => withProduct(r, [(r as unknown as Extra).proto]),
  'product + prototype margin': (r) => withProduct(r, [(r as unknown as Extra).protoMargin]),
  'product + kNN share': (r) => withProduct(r, [(r as unknown as Extra).knn]),
  'product + nearest of any intent': (r) => withProduct(r, [(r as unknown as Extra).nearestAny]),
  'product + both evidence margins + word ramp': (r) =>
    withProduct(r, [evidenceMargin(r, false), evidenceMargin(r, true), wordRamp(r)]),
  'product + kNN + prototype margin + word ramp': (r) =>
    withProduct(r, [(r as unknown as Extra).knn, (r as unknown as Extra).protoMargin, wordRamp(r)]),
  'product + margin unscaled + word ramp + kNN': (r) =>
    withProduct(r, [margin(r), wordRamp(r), (r as unknown as Extra).knn]),
};

/** Intents a row's fold trained on (cv-folds.ts: the in-scope intents less every fourth). */
const trainedIntents = new Map<string, number>();
const intentsIn = (r: Row): number => {
  const key = `${r.set} ${r.fold % 4}`;
  if (!trainedIntents.has(key)) {
    const all = intentsOf(readDataSet(r.set as (typeof DATA_SETS)[number])?.train ?? []);
    const held = heldOut(all);
    trainedIntents.set(key, all.filter((i) => !held.has(i)).filter((_, i) => i % 4 !== r.fold % 4).length);
  }
  return trainedIntents.get(key) as number;
};
interface Extra {
  readonly proto: number;
  readonly protoMargin: number;
  readonly knn: number;
  readonly nearestAny: number;
}
const withProduct = (r: Row, extra: number[]): number[] => {
  const base = (candidates.product as Extract)(r);
  return base.some(Number.isNaN) ? [...base, ...extra.map(() => Number.NaN)] : [...base, ...extra];
};
/** The best label's evidence less the best evidence among the next four ranked labels (capped ratios). */
const evidenceMargin = (r: Row, inEmbedding: boolean): number => {
  const top = (inEmbedding ? r.evidenceEmbeddedTop : r.evidenceTop) ?? [];
  const first = Math.min(2, top[0] ?? 0);
  const rest = Math.min(2, Math.max(0, ...top.slice(1)));
  return first - rest;
};
const wordRamp = (r: Row): number => evidenceRamp(wordEvidence(r), WORD_CALIBRATION);

const groupOf = (r: Row): string => `${r.set} ${r.mode}`;
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

/** The highest cut (on the logit) at which every group still turns away `wanted` of its pseudo out-of-scope queries... the lowest such cut. */
function lowestCut(scored: { group: string; z: number; oos: boolean }[]): number {
  let cut = -Infinity;
  for (const group of new Set(scored.map((s) => s.group))) {
    const oos = scored
      .filter((s) => s.group === group && s.oos)
      .map((s) => s.z)
      .sort((a, b) => a - b);
    // Turning away `wanted` of them means the cut sits above that quantile.
    const at = oos[Math.min(oos.length - 1, Math.ceil(wanted * oos.length) - 1)] as number;
    cut = Math.max(cut, at + 1e-9);
  }
  return cut;
}

function measure(
  scored: { group: string; z: number; oos: boolean; ok: boolean }[],
  cut: number,
): Map<string, { routed: number; away: number }> {
  const out = new Map<string, { routed: number; away: number }>();
  for (const group of new Set(scored.map((s) => s.group))) {
    const mine = scored.filter((s) => s.group === group);
    const inScope = mine.filter((s) => !s.oos);
    const oos = mine.filter((s) => s.oos);
    out.set(group, {
      routed: inScope.filter((s) => s.ok && s.z >= cut).length / inScope.length,
      away: oos.filter((s) => s.z < cut).length / oos.length,
    });
  }
  return out;
}

const describe = (m: Map<string, { routed: number; away: number }>): string =>
  [...m].map(([g, v]) => `${g} ${pct(v.routed)} / ${pct(v.away)}`).join('; ');

for (const [name, extract] of Object.entries(candidates)) {
  const xs = rows.map(extract);
  const ys = rows.map((r) => (r.ok && !r.oos ? 1 : 0));
  const w = fitLogistic(xs, ys);
  const scored = rows.map((r, i) => ({ group: groupOf(r), z: score(w, xs[i] as number[]), oos: r.oos, ok: r.ok }));
  const cut = lowestCut(scored);
  const all = measure(scored, cut);
  const mean = [...all.values()].reduce((s, v) => s + v.routed, 0) / all.size;
  console.log(`${name}: mean in scope ${pct(mean)} | ${describe(all)}`);
  // Transfer: fitted (weights and cut) on one set, applied to the other.
  const sets = [...new Set(rows.map((r) => r.set))];
  for (const fitted of sets) {
    const on = rows.map((r, i) => ({ r, x: xs[i] as number[] })).filter(({ r }) => r.set === fitted);
    const wSet = fitLogistic(
      on.map((o) => o.x),
      on.map((o) => (o.r.ok && !o.r.oos ? 1 : 0)),
    );
    const cutSet = lowestCut(on.map((o) => ({ group: groupOf(o.r), z: score(wSet, o.x), oos: o.r.oos })));
    const other = rows
      .map((r, i) => ({ group: groupOf(r), z: score(wSet, xs[i] as number[]), oos: r.oos, ok: r.ok }))
      .filter((s) => !s.group.startsWith(fitted));
    console.log(`    fitted on ${fitted}, applied to the other: ${describe(measure(other, cutSet))}`);
  }
  if (name === 'product') {
    // The score is 0.7 where the logit reaches the cut: the bias moves by logit(0.7) − cut.
    const { floor, cap } = embedded ? EMBEDDED_CALIBRATION : WORD_CALIBRATION;
    const calibration: Calibration = {
      floor,
      cap,
      weights: w.slice(0, -1).map((v) => Number(v.toFixed(4))) as unknown as Calibration['weights'],
      bias: Number(((w[w.length - 1] as number) - cut + Math.log(0.7 / 0.3)).toFixed(4)),
    };
    console.log(`    calibration for server/nlp/intent-score.ts: ${JSON.stringify(calibration)}`);
  }
}
