/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle distance in km (haversine). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface BoundingBox {
  readonly minLat: number;
  readonly maxLat: number;
  readonly minLon: number;
  readonly maxLon: number;
  /** True when the box crosses the antimeridian: longitudes outside [maxLon, minLon] match. */
  readonly wraps: boolean;
}

/**
 * A box that surely contains every point within `radiusKm`: a cheap prefilter
 * before the haversine. Near a pole it widens to all longitudes.
 */
export function boundingBox(lat: number, lon: number, radiusKm: number): BoundingBox {
  const dLat = radiusKm / EARTH_RADIUS_KM / RAD;
  const minLat = lat - dLat;
  const maxLat = lat + dLat;
  if (minLat <= -90 || maxLat >= 90)
    return { minLat: Math.max(minLat, -90), maxLat: Math.min(maxLat, 90), minLon: -180, maxLon: 180, wraps: false };
  const ratio = Math.sin(radiusKm / EARTH_RADIUS_KM) / Math.cos(lat * RAD);
  const dLon = ratio >= 1 ? 180 : Math.asin(ratio) / RAD;
  let minLon = lon - dLon;
  let maxLon = lon + dLon;
  if (dLon >= 180) return { minLat, maxLat, minLon: -180, maxLon: 180, wraps: false };
  const wraps = minLon < -180 || maxLon > 180;
  if (minLon < -180) minLon += 360;
  if (maxLon > 180) maxLon -= 360;
  return { minLat, maxLat, minLon, maxLon, wraps };
}

export function inBox(box: BoundingBox, lat: number, lon: number): boolean {
  if (lat < box.minLat || lat > box.maxLat) return false;
  return box.wraps ? lon >= box.minLon || lon <= box.maxLon : lon >= box.minLon && lon <= box.maxLon;
}
