import type { Filter, ObjectId } from 'mongodb';
import type { RangeQuery } from '../../ports/store.ts';
import { decodeObjectIdCursor } from './mongo-common.ts';

/** A row's place in a read ordered by (time, ObjectId): the insertion order breaks time ties. */
export interface ObjectIdPosition {
  readonly t: number;
  readonly o: ObjectId;
}

/** Where a read in ObjectId order resumes: after the query's cursor, else from its start (null). */
export function objectIdStart(query: RangeQuery): ObjectIdPosition | null {
  return query.after === undefined ? null : decodeObjectIdCursor(query.after);
}

/**
 * The query's time range over `field` and the resume point after `after` over (field, order), on top
 * of `base`, which may hold a condition of its own on `field`.
 */
export function rangeFilter<T>(
  field: string,
  order: string,
  query: RangeQuery,
  after: ObjectIdPosition | null,
  base: Readonly<Record<string, unknown>> = {},
): Filter<T> {
  const range: Record<string, unknown> = { ...base };
  if (query.fromMs !== undefined || query.toMs !== undefined) {
    range[field] = {
      ...(base[field] as object | undefined),
      ...(query.fromMs === undefined ? {} : { $gte: query.fromMs }),
      ...(query.toMs === undefined ? {} : { $lt: query.toMs }),
    };
  }
  if (after === null) return range as Filter<T>;
  return {
    $and: [range, { $or: [{ [field]: { $gt: after.t } }, { [field]: after.t, [order]: { $gt: after.o } }] }],
  } as Filter<T>;
}
