import type { Database } from './database.ts';
import type { KnownUserRow, TranscriptExportRow } from '../../ports/personal-data.ts';
import type { RangeQuery, RangeRead, UserExportRow } from '../../ports/store.ts';
import type { PersonalDataExports } from '../common/personal-data-parts.ts';
import { encodeCursor, InvalidCursorError, numericStart } from '../common/range-cursor.ts';
import { seekRead } from '../common/range-read.ts';
import { fromJson } from './json.ts';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * The transcript's key is (user id, seq), so its export cursor names both beside
 * the time: `x.` and base64url JSON [at, userId, seq].
 */
function encodeTranscriptCursor(at: number, userId: string, seq: number): string {
  return `x.${Buffer.from(JSON.stringify([at, userId, seq]), 'utf8').toString('base64url')}`;
}

function decodeTranscriptCursor(cursor: string): [number, string, number] {
  try {
    if (cursor.startsWith('x.')) {
      const parsed: unknown = JSON.parse(Buffer.from(cursor.slice(2), 'base64url').toString('utf8'));
      if (
        Array.isArray(parsed) &&
        parsed.length === 3 &&
        Number.isSafeInteger(parsed[0]) &&
        typeof parsed[1] === 'string' &&
        Number.isSafeInteger(parsed[2])
      ) {
        return parsed as [number, string, number];
      }
    }
  } catch {
    // reported below
  }
  throw new InvalidCursorError(cursor);
}

/** The exports of what the store knows of people: users' data and the transcript, page by page, preview users left out. */
export function sqliteExports(db: Database): PersonalDataExports {
  // Each batch must seek straight to the cursor in the index. SQLite seeks on
  // one lower bound only: with `a >= from` beside the cursor condition it picks
  // `from` and rescans the range on every batch (quadratic on large exports),
  // so the lower bound is folded into one `max(from, cursor)`.
  // Only the columns an export needs, as arrays (`raw`): at a million rows, building
  // an object with every column of every row was most of the read's cost.
  const usersBy = (time: string, wrote: string) =>
    db
      .prepare<[number, number, number, number, number, number], [string, number, number, string]>(
        `SELECT user_id, ${time}, seq, user_data FROM users
         WHERE ${wrote}${time} >= max(?, ?) AND ${time} < ? AND (${time}, seq) > (?, ?) AND preview IS NULL
         ORDER BY ${time}, seq LIMIT ?`,
      )
      .raw(true);
  const writersBatch = usersBy('last_message_at', 'last_message_at IS NOT NULL AND ');
  // The time listed is the user's last message, or their creation when they never wrote: the expression of the
  // users_by_listed index (migration 7), written exactly so, or SQLite would not use it.
  const knownBatch = usersBy('coalesce(last_message_at, created_at)', '');
  /** Users in `batch`'s order; `withText` keeps the data's JSON text beside it (KnownUserRow.userDataJson). */
  const readUsers = (batch: typeof knownBatch, query: RangeQuery, withText: boolean) => {
    const from = query.fromMs ?? MIN;
    const to = query.toMs ?? MAX;
    return seekRead(query.batchSize, {
      start: () => numericStart(query),
      fetch: (after, limit) => batch.all(from, after.t, to, after.t, after.o, limit),
      positionOf: ([, timestamp, seq]) => ({ t: timestamp, o: seq }),
      toRow: ([userId, timestamp, seq, userData]): KnownUserRow => ({
        userId,
        timestamp,
        userData: fromJson(userData),
        cursor: encodeCursor({ t: timestamp, o: seq }),
        ...(withText ? { userDataJson: userData } : {}),
      }),
    });
  };
  const transcriptBatch = db
    .prepare<
      [number, number, number, number, string, number, number],
      [string, number, string, number, string, string | null, string | null]
    >(
      `SELECT user_id, seq, sender, at, message, dialog_id, step_id FROM transcript
       WHERE at >= max(?, ?) AND at < ? AND (at, user_id, seq) > (?, ?, ?)
         AND user_id NOT IN (SELECT user_id FROM users WHERE preview IS NOT NULL)
       ORDER BY at, user_id, seq LIMIT ?`,
    )
    .raw(true);

  return {
    exportKnownUsers(query: RangeQuery): RangeRead<KnownUserRow> {
      return readUsers(knownBatch, query, true);
    },

    exportUsers(query: RangeQuery): AsyncIterable<UserExportRow> {
      return readUsers(writersBatch, query, false);
    },

    exportTranscript(query: RangeQuery): RangeRead<TranscriptExportRow> {
      const from = query.fromMs ?? MIN;
      const to = query.toMs ?? MAX;
      return seekRead(query.batchSize, {
        start: (): [number, string, number] =>
          query.after === undefined ? [MIN, '', MIN] : decodeTranscriptCursor(query.after),
        fetch: (after, limit) => transcriptBatch.all(from, after[0], to, after[0], after[1], after[2], limit),
        positionOf: ([userId, seq, , at]): [number, string, number] => [at, userId, seq],
        toRow: ([userId, seq, from_, at, message, dialogId, stepId]): TranscriptExportRow => ({
          userId,
          seq,
          from: from_ as 'user' | 'bot',
          at,
          message: fromJson<Record<string, unknown>>(message),
          dialogId,
          stepId,
          cursor: encodeTranscriptCursor(at, userId, seq),
        }),
      });
    },
  };
}
