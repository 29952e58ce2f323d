import type { RangeRead } from '../../ports/store.ts';
import { batchSizeOf } from './range-cursor.ts';

/**
 * Reads the next batch of a range read; an empty batch ends it. Returning rows synchronously
 * (SQLite) spares the await a promise would cost.
 */
export type NextBatch<T> = () => readonly T[] | Promise<readonly T[]>;

/**
 * A RangeRead over `open`, which starts the read afresh and returns its batch reader, so each
 * iteration (row by row or by batch) runs the read from its start, like a generator function.
 */
export function rangeRead<T>(open: () => NextBatch<T>): RangeRead<T> {
  return {
    async *[Symbol.asyncIterator]() {
      const next = open();
      for (;;) {
        const pending = next();
        const rows = Array.isArray(pending) ? (pending as readonly T[]) : await pending;
        if (rows.length === 0) return;
        for (const row of rows) yield row;
      }
    },
    async *batches() {
      const next = open();
      for (;;) {
        const pending = next();
        const rows = Array.isArray(pending) ? (pending as readonly T[]) : await pending;
        if (rows.length === 0) return;
        yield rows;
      }
    },
  };
}

/** The store-specific part of a seek read: where to start, how to fetch a batch, and what a row becomes. */
export interface SeekPages<P, R, T> {
  /** The position to read after: the query's cursor decoded, or before the first row. */
  readonly start: () => P;
  /** At most `limit` rows after `after`, in order; a fresh statement or query per batch. */
  readonly fetch: (after: P, limit: number) => readonly R[] | Promise<readonly R[]>;
  /** Where a row stands, to resume after it. */
  readonly positionOf: (row: R) => P;
  /** The row as the port gives it. */
  readonly toRow: (row: R) => T;
}

/**
 * A RangeRead that seeks to the last row's position for each batch instead of holding a cursor or
 * statement open: an open SQLite iterator would pin a read snapshot and block the connection until the
 * consumer finished, and no Mongo server cursor should outlive a slow consumer. A batch shorter than
 * asked ends the read without a query more.
 */
export function seekRead<P, R, T>(batchSize: number | undefined, pages: SeekPages<P, R, T>): RangeRead<T> {
  return rangeRead(() => {
    const limit = batchSizeOf(batchSize);
    let after = pages.start();
    let done = false;
    const take = (rows: readonly R[]): readonly T[] => {
      const last = rows.at(-1);
      if (last === undefined || rows.length < limit) done = true;
      else after = pages.positionOf(last);
      // A loop, not map(): an export turns millions of rows.
      const out = new Array<T>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = pages.toRow(rows[i]!);
      return out;
    };
    return () => {
      if (done) return [];
      const rows = pages.fetch(after, limit);
      return Array.isArray(rows) ? take(rows as readonly R[]) : (rows as Promise<readonly R[]>).then(take);
    };
  });
}
