import type { Database } from './database.ts';
import {
  emptyLogCounts,
  jobPayloadUser,
  type KnownUserRow,
  type PersonalDataStore,
  type TranscriptExportRow,
} from '../../ports/personal-data.ts';
import { LOG_KINDS, type RangeQuery, type RangeRead } from '../../ports/store.ts';
import { encodeCursor, InvalidCursorError, numericStart } from '../common/range-cursor.ts';
import { seekRead } from '../common/range-read.ts';
import { fromJson } from './json.ts';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;
/** Rows removed per write transaction by retention: other writers wait at most one batch. */
const PURGE_BATCH = 5000;

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

const nextTurn = () => new Promise((done) => setImmediate(done));

export function sqlitePersonalData(db: Database): PersonalDataStore {
  const deleteUser = db.prepare('DELETE FROM users WHERE user_id = ?');
  const deleteTranscript = db.prepare('DELETE FROM transcript WHERE user_id = ?');
  const deleteLogs = db.prepare('DELETE FROM logs WHERE user_id = ? AND kind = ?');
  // Job payloads are opaque JSON: a textual pre-filter on the id, then the payload is read to be sure.
  const candidateJobs = db.prepare<[string], { id: string; payload: string }>(
    'SELECT id, payload FROM jobs WHERE instr(payload, ?) > 0',
  );
  const deleteJob = db.prepare('DELETE FROM jobs WHERE id = ?');

  const eraseTx = db.transaction((userId: string) => {
    const logs = emptyLogCounts(LOG_KINDS);
    for (const kind of LOG_KINDS) logs[kind] = deleteLogs.run(userId, kind).changes;
    let jobs = 0;
    for (const job of candidateJobs.all(JSON.stringify(userId))) {
      if (jobPayloadUser(fromJson(job.payload)) === userId) jobs += deleteJob.run(job.id).changes;
    }
    const transcript = deleteTranscript.run(userId).changes;
    const user = deleteUser.run(userId).changes;
    return { user, transcript, logs, jobs };
  });

  const purgeTranscript = db.prepare(
    `DELETE FROM transcript WHERE (user_id, seq) IN (SELECT user_id, seq FROM transcript WHERE at < ? ORDER BY at LIMIT ${PURGE_BATCH})`,
  );
  const purgeLogs = db.prepare(
    `DELETE FROM logs WHERE id IN (SELECT id FROM logs WHERE kind = ? AND timestamp < ? ORDER BY timestamp LIMIT ${PURGE_BATCH})`,
  );

  /** Deletes batch after batch, yielding between them so turns are written in the meantime. */
  const drain = async (run: () => number): Promise<number> => {
    let total = 0;
    for (;;) {
      const removed = db.transaction(run).immediate();
      total += removed;
      if (removed < PURGE_BATCH) return total;
      await nextTurn();
    }
  };

  // Seek to the cursor with one lower bound, as in sqlite-users.ts. The time listed is the
  // user's last message, or their creation when they never wrote: the expression of the
  // users_by_listed index (migration 7), written exactly so, or SQLite would not use it.
  const knownBatch = db
    .prepare<[number, number, number, number, number, number], [string, number, number, string]>(
      `SELECT user_id, coalesce(last_message_at, created_at), seq, user_data FROM users
       WHERE coalesce(last_message_at, created_at) >= max(?, ?) AND coalesce(last_message_at, created_at) < ?
         AND (coalesce(last_message_at, created_at), seq) > (?, ?) AND preview IS NULL
       ORDER BY coalesce(last_message_at, created_at), seq LIMIT ?`,
    )
    .raw(true);
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
    async eraseUser(userId) {
      return eraseTx.immediate(userId);
    },

    async purgeOlderThan(cutoffs) {
      const transcriptBefore = cutoffs.transcriptBefore;
      const transcript =
        transcriptBefore === undefined ? 0 : await drain(() => purgeTranscript.run(transcriptBefore).changes);
      const logs = emptyLogCounts(LOG_KINDS);
      for (const kind of LOG_KINDS) {
        const before = cutoffs.logsBefore?.[kind];
        if (before !== undefined) logs[kind] = await drain(() => purgeLogs.run(kind, before).changes);
      }
      return { transcript, logs };
    },

    exportKnownUsers(query: RangeQuery): RangeRead<KnownUserRow> {
      const from = query.fromMs ?? MIN;
      const to = query.toMs ?? MAX;
      return seekRead(query.batchSize, {
        start: () => numericStart(query),
        fetch: (after, limit) => knownBatch.all(from, after.t, to, after.t, after.o, limit),
        positionOf: ([, timestamp, seq]) => ({ t: timestamp, o: seq }),
        toRow: ([userId, timestamp, seq, userData]): KnownUserRow => ({
          userId,
          timestamp,
          userData: fromJson(userData),
          cursor: encodeCursor({ t: timestamp, o: seq }),
          userDataJson: userData,
        }),
      });
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
