// Chooses the intent score's constants (server/nlp/intent-model.ts, ScoreOptions) from what
// tune-word-model.ts dumped: for each floor and cap of the evidence ramp, the lowest cut on
// probability × evidence that turns away at least the wanted share of pseudo out-of-scope texts in
// EVERY group (set × training size), and of those the constants that route most in-scope texts
// right on average. The sharpness then maps that cut to the default threshold 0.7.
//   node --import tsx bench/nlp/calibrate-score.ts <dump.json> <words|embedded> [least out-of-scope recall, 0.6]
import { readFileSync } from 'node:fs';

interface Row {
  readonly set: string;
  readonly mode: string;
  readonly oos: boolean;
  readonly ok: boolean;
  readonly p1?: number;
  readonly nearest?: number;
  readonly typical?: number;
  readonly nearestEmbedded?: number;
  readonly typicalEmbedded?: number;
}

const [file, kind = 'words', least = '0.6'] = process.argv.slice(2);
if (!file) throw new Error('usage: calibrate-score.ts <dump.json> <words|embedded> [least out-of-scope recall]');
const embedded = kind === 'embedded';
const wanted = Number(least);
const THRESHOLD = 0.7;

const groups = new Map<string, { p: number; ratio: number; ok: boolean; oos: boolean }[]>();
for (const r of JSON.parse(readFileSync(file, 'utf8')) as Row[]) {
  const near = embedded ? r.nearestEmbedded : r.nearest;
  const typical = embedded ? r.typicalEmbedded : r.typical;
  if (r.p1 === undefined || near === undefined || typical === undefined) continue;
  const key = `${r.set} ${r.mode}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key)!.push({ p: r.p1, ratio: near / typical, ok: r.ok, oos: r.oos });
}

function evaluate(floor: number, cap: number, cut: number): Map<string, { routed: number; turnedAway: number }> {
  const out = new Map<string, { routed: number; turnedAway: number }>();
  for (const [key, rows] of groups) {
    let inScope = 0;
    let routed = 0;
    let oos = 0;
    let away = 0;
    for (const r of rows) {
      const raw = r.p * (Math.max(0, Math.min(cap, r.ratio) - floor) / (cap - floor));
      if (r.oos) {
        oos++;
        if (raw < cut) away++;
      } else {
        inScope++;
        if (r.ok && raw >= cut) routed++;
      }
    }
    out.set(key, { routed: routed / inScope, turnedAway: away / oos });
  }
  return out;
}

const floors = embedded ? [0.4, 0.5, 0.6, 0.7, 0.75, 0.8] : [0.2, 0.3, 0.4, 0.5, 0.6];
const caps = [1, 1.1, 1.25, 1.5];
const cuts = Array.from({ length: 160 }, (_, i) => Math.exp(Math.log(0.005) + (i / 159) * (Math.log(0.95) - Math.log(0.005))));
const found: { mean: number; floor: number; cap: number; cut: number; result: Map<string, { routed: number; turnedAway: number }> }[] = [];
for (const floor of floors) {
  for (const cap of caps) {
    if (cap <= floor) continue;
    for (const cut of cuts) {
      const result = evaluate(floor, cap, cut);
      if (Math.min(...[...result.values()].map((v) => v.turnedAway)) < wanted) continue;
      const mean = [...result.values()].reduce((sum, v) => sum + v.routed, 0) / result.size;
      found.push({ mean, floor, cap, cut, result });
      break;
    }
  }
}
found.sort((a, b) => b.mean - a.mean);
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
for (const f of found.slice(0, 5)) {
  const sharpness = Math.log(THRESHOLD) / Math.log(f.cut);
  const groupsText = [...f.result].map(([key, v]) => `${key} in scope ${pct(v.routed)} / out of scope ${pct(v.turnedAway)}`).join('; ');
  console.log(`floor ${f.floor} cap ${f.cap} sharpness ${sharpness.toFixed(3)}: mean in scope ${pct(f.mean)} | ${groupsText}`);
}
