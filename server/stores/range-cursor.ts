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

export function encodeCursor(position: RangePosition): string {
  return Buffer.from(JSON.stringify([position.t, position.o]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): RangePosition {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // fall through to the shape check, which rejects it
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    !Number.isFinite(parsed[0]) ||
    !(Number.isSafeInteger(parsed[1]) || typeof parsed[1] === 'string')
  ) {
    throw new InvalidCursorError(cursor);
  }
  return { t: parsed[0] as number, o: parsed[1] as number | string };
}

/** For stores whose insertion order is a number. */
export function decodeNumericCursor(cursor: string): { t: number; o: number } {
  const position = decodeCursor(cursor);
  if (typeof position.o !== 'number') throw new InvalidCursorError(cursor);
  return { t: position.t, o: position.o };
}

/** Batch size of range reads when the caller does not ask for one. */
export const DEFAULT_BATCH_SIZE = 500;

export function batchSizeOf(requested: number | undefined): number {
  if (requested === undefined) return DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(requested) || requested < 1) {
    throw new RangeError(`batchSize must be a positive integer, got ${requested}`);
  }
  return requested;
}
