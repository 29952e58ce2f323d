import { ObjectId, type MongoServerError } from 'mongodb';
import { decodeCursor, InvalidCursorError } from '../common/range-cursor.ts';

/**
 * Opaque records (variables, user data, messages, payloads, row data) are
 * stored as JSON text: FerretDB rejects keys containing '.' or starting
 * with '$', and the port promises such records back exactly as given.
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as MongoServerError).code === 11000;
}

/** Collection names, in one place so indexes and queries agree. */
export const COLLECTIONS = {
  users: 'users',
  transcript: 'transcript',
  logs: 'logs',
  jobs: 'jobs',
  datasets: 'datasets',
  datasetRows: 'dataset_rows',
  locks: 'locks',
  leases: 'leases',
  subscriptions: 'subscriptions',
  subscriptionEvents: 'subscription_events',
  /** One document: the highest event seq ever handed out (seqs are never reused). */
  subscriptionSequence: 'subscription_sequence',
  usageCounters: 'usage_counters',
} as const;

/** For collections whose insertion order is an ObjectId (see mongo-logs.ts). */
export function decodeObjectIdCursor(cursor: string): { t: number; o: ObjectId } {
  const position = decodeCursor(cursor);
  if (typeof position.o !== 'string' || !/^[0-9a-f]{24}$/.test(position.o)) throw new InvalidCursorError(cursor);
  return { t: position.t, o: ObjectId.createFromHexString(position.o) };
}
