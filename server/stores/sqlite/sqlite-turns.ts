import type { Database } from './database.ts';
import type { PreviewMark } from '../../ports/preview.ts';
import type { ConversationPosition, Store, TurnCommit, TurnCommitResult, UserRecord } from '../../ports/store.ts';
import { groupCommit } from './group-commit.ts';
import { fromJson, toJson } from './json.ts';
import { toEntry, type TranscriptRow, type UserRow } from './rows.ts';
import { sqliteTurnRows } from './sqlite-turn-rows.ts';

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
  const writeRows = sqliteTurnRows(db);
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

    const { entries, seq } = writeRows(commit, row.last_seq);

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
    const user: UserRecord = {
      userId,
      channelId: row.channel_id,
      position: patch.position === undefined ? positionOf(row.position) : patch.position,
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
    };
    return { status: 'committed', entries, user };
  };
  const commitTurn = groupCommit(db, commitOne);

  return {
    commitTurn,
  };
}

function positionOf(text: string | null): ConversationPosition | null {
  return text === null ? null : fromJson<ConversationPosition>(text);
}
