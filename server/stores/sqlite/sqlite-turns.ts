import type { Database } from './database.ts';
import type { PreviewMark } from '../../ports/preview.ts';
import type {
  ConversationPosition,
  NewTranscriptEntry,
  Store,
  TranscriptEntry,
  TurnCommit,
  TurnCommitResult,
} from '../../ports/store.ts';
import { groupCommit } from './group-commit.ts';
import { fromJson, toJson } from './json.ts';
import { CANCEL_JOB_SQL, SCHEDULE_JOB_SQL, scheduleParams } from './job-table.ts';
import { originOf } from '../common/transcript-origin.ts';
import { toEntry, type TranscriptRow, type UserRow } from './rows.ts';

type TurnOps = Pick<Store, 'commitTurn'>;

/**
 * A whole turn in one savepoint of a group commit (group-commit.ts): one
 * read of the user, the inserts, one update. Every turn used to take three
 * transactions (user entry, state, bot entries) and as many reads of the user
 * row; this is most of a turn's store cost, and the all-or-nothing commit is
 * also the safer one.
 */
export function sqliteTurns(db: Database): TurnOps {
  const selectUser = db.prepare<[string], Omit<UserRow, 'seq' | 'updated_at'>>(
    `SELECT user_id, channel_id, position, variables, user_data, last_message_at, created_at, version, last_seq, last_trigger, pending_seq, preview
     FROM users WHERE user_id = ?`,
  );
  // A turn's patch carries the new variables and user data (apply-turn.ts): their stored text,
  // the row's largest columns, is then neither needed nor copied out of SQLite.
  const selectUserLean = db.prepare<[string], Omit<UserRow, 'seq' | 'updated_at' | 'variables' | 'user_data'>>(
    `SELECT user_id, channel_id, position, last_message_at, created_at, version, last_seq, last_trigger, pending_seq, preview
     FROM users WHERE user_id = ?`,
  );
  const byClientId = db.prepare<[string, string], TranscriptRow>(
    'SELECT * FROM transcript WHERE user_id = ? AND client_id = ?',
  );
  const insertEntry = db.prepare<[string, number, string, string | null, number, string, string | null, string | null]>(
    'INSERT INTO transcript (user_id, seq, sender, client_id, at, message, dialog_id, step_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertLog = db.prepare<[string, string, number, string]>(
    'INSERT INTO logs (kind, user_id, timestamp, data) VALUES (?, ?, ?, ?)',
  );
  const scheduleJob = db.prepare(SCHEDULE_JOB_SQL);
  const cancelJob = db.prepare(CANCEL_JOB_SQL);
  const updateUser = db.prepare<
    [string | null, string, string, number | null, number, number, string | null, number | null, string, number]
  >(
    `UPDATE users SET position = ?, variables = ?, user_data = ?, last_message_at = ?, updated_at = ?,
                      last_seq = ?, last_trigger = ?, pending_seq = ?, version = version + 1
     WHERE user_id = ? AND version = ?`,
  );

  const commitOne = (commit: TurnCommit): TurnCommitResult => {
    const { userId, patch, now } = commit;
    const lean = patch.variables !== undefined && patch.userData !== undefined;
    const row:
      | (Omit<UserRow, 'seq' | 'updated_at' | 'variables' | 'user_data'> & { variables?: string; user_data?: string })
      | undefined = lean ? selectUserLean.get(userId) : selectUser.get(userId);
    if (row === undefined) return { status: 'conflict' };
    const userClientId = commit.userEntry?.clientId ?? null;
    if (userClientId !== null) {
      const existing = byClientId.get(userId, userClientId);
      if (existing !== undefined) return { status: 'duplicate', entry: toEntry(existing) };
    }
    if (row.version !== commit.expectedVersion) return { status: 'conflict' };

    let seq = row.last_seq;
    const entries: TranscriptEntry[] = [];
    const append = (entry: NewTranscriptEntry) => {
      seq += 1;
      const clientId = entry.clientId ?? null;
      const origin = originOf(entry);
      insertEntry.run(
        userId,
        seq,
        entry.from,
        clientId,
        entry.at,
        toJson(entry.message),
        origin?.dialogId ?? null,
        origin?.stepId ?? null,
      );
      entries.push({ userId, seq, from: entry.from, clientId, at: entry.at, message: entry.message, ...origin });
    };
    if (commit.userEntry) append(commit.userEntry);
    for (const snapshot of commit.snapshots ?? []) {
      insertLog.run('userDataSnapshot', snapshot.userId, snapshot.timestamp, toJson(snapshot.data));
    }
    for (const entry of commit.botEntries) append(entry);
    // The outbox, in the turn's savepoint: stored exactly when the turn is.
    for (const id of commit.cancelJobs ?? []) cancelJob.run(id);
    for (const job of commit.jobs ?? []) scheduleJob.run(scheduleParams(job));
    for (const { kind, entry } of commit.logs ?? [])
      insertLog.run(kind, entry.userId, entry.timestamp, toJson(entry.data));

    // Untouched fields keep their stored text: no parse and re-serialise for them.
    const position =
      patch.position === undefined ? row.position : patch.position === null ? null : toJson(patch.position);
    const variables = patch.variables === undefined ? row.variables! : toJson(patch.variables);
    const userData = patch.userData === undefined ? row.user_data! : toJson(patch.userData);
    const lastMessageAt = patch.lastMessageAt === undefined ? row.last_message_at : patch.lastMessageAt;
    const lastTrigger = patch.lastTrigger ?? row.last_trigger;
    // Answered in the same write as the state: the message cannot be run a third time.
    const pending =
      commit.answersPending !== undefined && row.pending_seq === commit.answersPending ? null : row.pending_seq;
    const changed = updateUser.run(
      position,
      variables,
      userData,
      lastMessageAt,
      now,
      seq,
      lastTrigger,
      pending,
      userId,
      commit.expectedVersion,
    );
    // Cannot happen inside the write transaction; throwing rolls the inserts back.
    if (changed.changes !== 1) throw new Error(`user ${userId} changed inside its own write transaction`);
    return {
      status: 'committed',
      entries,
      user: {
        userId,
        channelId: row.channel_id,
        position:
          patch.position === undefined
            ? row.position === null
              ? null
              : fromJson<ConversationPosition>(row.position)
            : patch.position,
        variables: patch.variables ?? fromJson(row.variables!),
        userData: patch.userData ?? fromJson(row.user_data!),
        lastMessageAt,
        createdAt: row.created_at,
        updatedAt: now,
        version: row.version + 1,
        lastSeq: seq,
        lastTrigger,
        ...(pending === null ? {} : { pendingSeq: pending }),
        ...(row.preview === null || row.preview === undefined ? {} : { preview: fromJson<PreviewMark>(row.preview) }),
      },
    };
  };
  const commitTurn = groupCommit(db, commitOne);

  return {
    commitTurn,
  };
}
