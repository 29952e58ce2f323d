/** A read of rows in time order, resumable after a cursor: exports, logs, transcripts. */
export interface RangeQuery {
  readonly fromMs?: number;
  readonly toMs?: number;
  /** Resume strictly after this cursor (from a previous entry). */
  readonly after?: string;
  /** Ask the adapter to fetch in batches of this size; it never changes the result. */
  readonly batchSize?: number;
}

/**
 * A range read: row by row (`for await`), or a batch at a time through `batches()`, where
 * a consumer of millions of rows (an export) awaits once per batch rather than once per row.
 * Both give the same rows in the same order; each iteration runs the read from its start.
 */
export interface RangeRead<T> extends AsyncIterable<T> {
  /** The rows in batches of at most `RangeQuery.batchSize`, none of them empty. */
  batches(): AsyncIterable<readonly T[]>;
}
