import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DatasetRow } from '../../ports/store.ts';
import { DatasetIndex } from './dataset-index.ts';
import { EARTH_RADIUS_KM, haversineKm } from './geo.ts';

const row = (id: string, lat: number | null, lon: number | null, tags: string[] = []): DatasetRow => ({
  id,
  tags,
  lat,
  lon,
  data: { id },
});
/** The point `km` north of (lat, lon) along the meridian: exactly `km` away by haversine. */
const north = (lat: number, lon: number, km: number): [number, number] => [
  lat + (km / EARTH_RADIUS_KM) * (180 / Math.PI),
  lon,
];
/** The point `km` east along the parallel is not a great circle; find it by bisection on the haversine distance instead. */
const east = (lat: number, lon: number, km: number): [number, number] => {
  let lo = 0;
  let hi = 90;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (haversineKm(lat, lon, lat, lon + mid) < km) lo = mid;
    else hi = mid;
  }
  return [lat, lon + (lo + hi) / 2];
};

describe('DatasetIndex', () => {
  const center: [number, number] = [52.2297, 21.0122];

  it('when points sit just inside and just outside the radius, then only the inside ones are found, nearest first', () => {
    const rows = [
      row('n-in', ...north(...center, 9.999)),
      row('n-out', ...north(...center, 10.001)),
      row('e-in', ...east(...center, 9.999)),
      row('e-out', ...east(...center, 10.001)),
      row('here', ...center),
      row('nowhere', null, null),
    ];
    const hits = new DatasetIndex(rows).query({ near: { lat: center[0], lon: center[1], radiusKm: 10 }, limit: 50 });
    expect(hits[0]).toMatchObject({ row: { id: 'here' }, distanceKm: 0 });
    expect(hits.map((h) => h.row.id).sort()).toEqual(['e-in', 'here', 'n-in']);
    for (const hit of hits) expect(hit.distanceKm!).toBeLessThanOrEqual(10);
  });

  it('when the circle crosses the antimeridian, then points on both sides are found', () => {
    const rows = [row('west', 0, 179.95), row('east', 0, -179.95), row('far', 0, 170)];
    const hits = new DatasetIndex(rows).query({ near: { lat: 0, lon: 179.99, radiusKm: 20 } });
    expect(hits.map((h) => h.row.id).sort()).toEqual(['east', 'west']);
  });

  it('when tags are given, then rows must carry all of them, case-insensitively', () => {
    const index = new DatasetIndex([
      row('a', 1, 1, ['Cafe', 'wifi']),
      row('b', 1, 1, ['cafe']),
      row('c', 1, 1, ['wifi']),
    ]);
    expect(index.query({ tags: ['cafe'] }).map((h) => h.row.id)).toEqual(['a', 'b']);
    expect(index.query({ tags: ['CAFE', 'wifi'] }).map((h) => h.row.id)).toEqual(['a']);
    expect(index.query({ tags: ['museum'] })).toEqual([]);
  });

  it('when tags and radius combine, then both must hold and the limit applies after sorting by distance', () => {
    const rows = [
      row('far-cafe', ...north(0, 0, 4), ['cafe']),
      row('near-cafe', ...north(0, 0, 1), ['cafe']),
      row('near-bar', ...north(0, 0, 0.5), ['bar']),
    ];
    const hits = new DatasetIndex(rows).query({ tags: ['cafe'], near: { lat: 0, lon: 0, radiusKm: 5 }, limit: 1 });
    expect(hits.map((h) => h.row.id)).toEqual(['near-cafe']);
  });

  it('when any points and circle are drawn, then the index finds exactly what a brute-force haversine finds, nearest first', () => {
    const point = fc.record({
      lat: fc.double({ min: -89, max: 89, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(point, { maxLength: 60 }),
        point,
        fc.double({ min: 0.1, max: 3000, noNaN: true }),
        (points, c, radiusKm) => {
          const rows = points.map((p, i) => row(`r${i}`, p.lat, p.lon));
          const hits = new DatasetIndex(rows).query({ near: { lat: c.lat, lon: c.lon, radiusKm }, limit: 1000 });
          const expected = rows.filter((r) => haversineKm(c.lat, c.lon, r.lat!, r.lon!) <= radiusKm);
          // Points within a micrometre of the edge may fall either way by rounding.
          const clear = (id: string) =>
            Math.abs(
              haversineKm(c.lat, c.lon, rows[Number(id.slice(1))]!.lat!, rows[Number(id.slice(1))]!.lon!) - radiusKm,
            ) > 1e-6;
          expect(
            hits
              .map((h) => h.row.id)
              .filter(clear)
              .sort(),
          ).toEqual(
            expected
              .map((r) => r.id)
              .filter(clear)
              .sort(),
          );
          for (let i = 1; i < hits.length; i++)
            expect(hits[i]!.distanceKm!).toBeGreaterThanOrEqual(hits[i - 1]!.distanceKm!);
        },
      ),
      { numRuns: 300 },
    );
  });
});
