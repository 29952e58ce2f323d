import type { DatasetRow } from '../../ports/store.ts';
import type { DatasetConfig } from './dataset-config.ts';

export type RowResult =
  { readonly ok: true; readonly row: DatasetRow } | { readonly ok: false; readonly problem: string };

/** Turns one raw row (as the source or a push sends it) into a stored row, by the dataset's field paths. */
export function toDatasetRow(raw: unknown, fields: DatasetConfig['fields']): RowResult {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problem: 'is not an object' };
  const data = raw as Record<string, unknown>;
  const id = read(data, fields.id);
  if ((typeof id !== 'string' || id === '') && typeof id !== 'number')
    return { ok: false, problem: `has no ${fields.id} (string or number)` };
  const tagsValue = read(data, fields.tags);
  const tags = Array.isArray(tagsValue)
    ? tagsValue.filter((t): t is string => typeof t === 'string')
    : typeof tagsValue === 'string'
      ? [tagsValue]
      : [];
  const lat = coordinate(read(data, fields.lat), 90);
  const lon = coordinate(read(data, fields.lon), 180);
  if ((lat === null) !== (lon === null))
    return { ok: false, problem: `has only one of ${fields.lat} and ${fields.lon}, or one out of range` };
  return { ok: true, row: { id: String(id), tags, lat, lon, data } };
}

function read(data: Record<string, unknown>, path: string): unknown {
  let current: unknown = data;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function coordinate(value: unknown, limit: number): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
}
