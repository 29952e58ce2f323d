import type { RangeRead } from '../ports/store.ts';

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
