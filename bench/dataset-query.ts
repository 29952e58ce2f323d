// Background dataset queries at 10k rows, in memory (goal: ~1-2 ms a query): radius, tags, and both.
import type { DatasetRow } from '../server/ports/store.ts';
import { DatasetIndex, type DatasetQuery } from '../server/integrations/datasets/dataset-index.ts';

const ROWS = 10_000;
const TAGS = ['cafe', 'museum', 'park', 'shop', 'bar', 'hotel', 'wifi', 'vegan', 'kids', 'open-late'];
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
// Spread over Poland (about 49-55 N, 14-24 E), like a national chain of places.
const rows: DatasetRow[] = Array.from({ length: ROWS }, (_, i) => ({
  id: `p${i}`,
  tags: TAGS.filter(() => random() < 0.2),
  lat: 49 + random() * 6,
  lon: 14 + random() * 10,
  data: { name: `Place ${i}` },
}));

let started = performance.now();
const index = new DatasetIndex(rows);
console.log(`dataset index build, ${ROWS} rows: ${(performance.now() - started).toFixed(1)} ms`);

const warsaw = { lat: 52.2297, lon: 21.0122 };
const cases: [string, DatasetQuery][] = [
  ['radius 5 km', { near: { ...warsaw, radiusKm: 5 } }],
  ['radius 50 km', { near: { ...warsaw, radiusKm: 50 } }],
  ['radius 500 km (most rows)', { near: { ...warsaw, radiusKm: 500 }, limit: 10 }],
  ['tags cafe+wifi', { tags: ['cafe', 'wifi'] }],
  ['tags cafe + radius 50 km', { tags: ['cafe'], near: { ...warsaw, radiusKm: 50 } }],
];
for (const [label, query] of cases) {
  for (let i = 0; i < 500; i++) index.query(query);
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < 5000; i++) {
    started = performance.now();
    hits = index.query(query).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.floor(q * times.length)]!;
  console.log(
    `dataset query, ${ROWS} rows, ${label.padEnd(26)} p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  (${hits} hits)`,
  );
}
