/**
 * The opaque `cursor` of log entries and user export rows, shared by both store
 * adapters so a cursor means the same thing whichever store produced it:
 * a position in (time, insertion order).
 */

export interface RangePosition {
  /** The entry's time (epoch ms). */
  readonly t: number;
  /** The entry's insertion order, unique within one store: a row id, or an ObjectId in hex. */
  readonly o: number | string;
}

/** A cursor that no store produced; the API edge maps it to a 400. */
export class InvalidCursorError extends Error {
  readonly code = 'invalid_cursor';
  readonly status = 400;
  constructor(cursor: string) {
    super(`invalid cursor: ${JSON.stringify(cursor.slice(0, 80))}`);
    this.name = 'InvalidCursorError';
  }
}

/**
 * `<time base36>.<n|s><order>`: cheap to make, since one is made per exported
 * row (a JSON + base64 form cost more than reading the row itself).
 */
export function encodeCursor(position: RangePosition): string {
  const order = typeof position.o === 'number' ? `n${position.o.toString(36)}` : `s${position.o}`;
  return `${position.t.toString(36)}.${order}`;
}

const CURSOR = /^(-?[0-9a-z]{1,12})\.(?:n(-?[0-9a-z]{1,12})|s([0-9a-f]{24}))$/;

export function decodeCursor(cursor: string): RangePosition {
  const match = CURSOR.exec(cursor);
  const t = match ? parseInt(match[1] as string, 36) : NaN;
  const o = match?.[2] !== undefined ? parseInt(match[2], 36) : match?.[3];
  if (!Number.isSafeInteger(t) || o === undefined || (typeof o === 'number' && !Number.isSafeInteger(o))) {
    throw new InvalidCursorError(cursor);
  }
  return { t, o };
}

/** For stores whose insertion order is a number. */
export function decodeNumericCursor(cursor: string): { t: number; o: number } {
  const position = decodeCursor(cursor);
  if (typeof position.o !== 'number') throw new InvalidCursorError(cursor);
  return { t: position.t, o: position.o };
}

/** Batch size of range reads when the caller does not ask for one. */
export const DEFAULT_BATCH_SIZE = 1000;

export function batchSizeOf(requested: number | undefined): number {
  if (requested === undefined) return DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(requested) || requested < 1) {
    throw new RangeError(`batchSize must be a positive integer, got ${requested}`);
  }
  return requested;
}

/** Where a read in numeric insertion order resumes: after the query's cursor, else before every row. */
export function numericStart(query: { readonly after?: string }): { t: number; o: number } {
  if (query.after === undefined) return { t: Number.MIN_SAFE_INTEGER, o: Number.MIN_SAFE_INTEGER };
  return decodeNumericCursor(query.after);
}
