import type { DatasetRow } from '../../ports/store.ts';
import { boundingBox, EARTH_RADIUS_KM, inBox } from './geo.ts';

const RAD = Math.PI / 180;

export interface DatasetQuery {
  /** Rows must carry every one of these tags (case-insensitive). */
  readonly tags?: readonly string[];
  /** With lat/lon: only rows within this many km, nearest first. */
  readonly near?: { readonly lat: number; readonly lon: number; readonly radiusKm: number };
  readonly limit?: number;
}

export interface DatasetHit {
  readonly row: DatasetRow;
  /** Present for radius queries. */
  readonly distanceKm?: number;
}

/**
 * An in-memory index of one dataset: tag postings and coordinates in typed
 * arrays, so a query over thousands of rows is a tight loop (bounding-box
 * prefilter, then haversine on the few that pass). Immutable: updates build a
 * new index, so a query never sees half an update.
 */
export class DatasetIndex {
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;
  /** cos(latitude) per row, precomputed for the haversine. */
  private readonly cosLat: Float64Array;
  private readonly postings = new Map<string, number[]>();

  constructor(readonly rows: readonly DatasetRow[]) {
    this.lat = new Float64Array(rows.length);
    this.lon = new Float64Array(rows.length);
    this.cosLat = new Float64Array(rows.length);
    rows.forEach((row, i) => {
      this.lat[i] = row.lat ?? Number.NaN;
      this.lon[i] = row.lon ?? Number.NaN;
      this.cosLat[i] = Math.cos(this.lat[i]! * RAD);
      for (const tag of new Set(row.tags.map((t) => t.toLowerCase()))) {
        let list = this.postings.get(tag);
        if (!list) this.postings.set(tag, (list = []));
        list.push(i);
      }
    });
  }

  get size(): number {
    return this.rows.length;
  }

  query(query: DatasetQuery): DatasetHit[] {
    const limit = query.limit ?? 10;
    const candidates = this.byTags(query.tags ?? []);
    const near = query.near;
    if (!near) {
      const hits: DatasetHit[] = [];
      const each = (i: number) => hits.push({ row: this.rows[i]! });
      if (candidates)
        for (const i of candidates) {
          if (hits.length >= limit) break;
          each(i);
        }
      else for (let i = 0; i < this.rows.length && hits.length < limit; i++) each(i);
      return hits;
    }
    const box = boundingBox(near.lat, near.lon, near.radiusKm);
    // Haversine compares its inner term `h` with the radius's, so asin runs only for rows kept;
    // the nearest `limit` rows stay in a small sorted buffer instead of sorting every match.
    const maxH = Math.sin(Math.min(Math.PI, near.radiusKm / EARTH_RADIUS_KM) / 2) ** 2;
    const lat0 = near.lat * RAD;
    const lon0 = near.lon * RAD;
    const cos0 = Math.cos(lat0);
    const bestH = new Float64Array(limit).fill(Number.POSITIVE_INFINITY);
    const bestI = new Int32Array(limit);
    let count = 0;
    const consider = (i: number) => {
      const lat = this.lat[i]!;
      const lon = this.lon[i]!;
      if (!inBox(box, lat, lon)) return; // NaN (no coordinates) fails every comparison, so it drops out here too
      const h = Math.sin((lat * RAD - lat0) / 2) ** 2 + cos0 * this.cosLat[i]! * Math.sin((lon * RAD - lon0) / 2) ** 2;
      if (h > maxH || h >= bestH[limit - 1]!) return;
      let j = Math.min(count, limit - 1);
      while (j > 0 && bestH[j - 1]! > h) {
        bestH[j] = bestH[j - 1]!;
        bestI[j] = bestI[j - 1]!;
        j--;
      }
      bestH[j] = h;
      bestI[j] = i;
      if (count < limit) count++;
    };
    if (candidates) for (const i of candidates) consider(i);
    else for (let i = 0; i < this.rows.length; i++) consider(i);
    const hits: DatasetHit[] = [];
    for (let k = 0; k < count; k++) {
      hits.push({
        row: this.rows[bestI[k]!]!,
        distanceKm: 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(bestH[k]!))),
      });
    }
    return hits;
  }

  /** Row positions carrying every tag, or undefined when no tag filter applies. */
  private byTags(tags: readonly string[]): readonly number[] | undefined {
    if (tags.length === 0) return undefined;
    const lists = tags.map((tag) => this.postings.get(tag.toLowerCase()) ?? []);
    lists.sort((a, b) => a.length - b.length);
    const [smallest, ...others] = lists;
    if (!smallest || smallest.length === 0) return [];
    if (others.length === 0) return smallest;
    // A count per row (one byte each) beats building a Set per list on every query.
    const seen = new Uint8Array(this.rows.length);
    for (const list of others) for (const i of list) seen[i]!++;
    return smallest.filter((i) => seen[i] === others.length);
  }
}
