import type { Database } from './database.ts';
import type { PreviewMark } from '../../ports/preview.ts';
import type { ConversationPosition, NewUser, Store, UserPatch, UserRecord } from '../../ports/store.ts';
import { groupCommit } from './group-commit.ts';
import { fromJson, toJson } from './json.ts';
import type { UserRow } from './rows.ts';

function toUser(row: UserRow): UserRecord {
  return {
    userId: row.user_id,
    channelId: row.channel_id,
    position: row.position === null ? null : fromJson<ConversationPosition>(row.position),
    variables: fromJson(row.variables),
    userData: fromJson(row.user_data),
    lastMessageAt: row.last_message_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    lastSeq: row.last_seq,
    lastTrigger: row.last_trigger,
    ...(row.pending_seq === null ? {} : { pendingSeq: row.pending_seq }),
    ...(row.preview === null || row.preview === undefined ? {} : { preview: fromJson<PreviewMark>(row.preview) }),
  };
}

type UserOps = Pick<Store, 'getUser' | 'ensureUser' | 'updateUser' | 'previewUsers'>;

export function sqliteUsers(db: Database): UserOps {
  const select = db.prepare<[string], UserRow>('SELECT * FROM users WHERE user_id = ?');
  // RETURNING gives the new row in the same statement; nothing when the user already existed.
  const insert = db.prepare<[Record<string, unknown>], UserRow>(
    `INSERT INTO users (user_id, channel_id, position, variables, user_data, last_message_at,
                        created_at, updated_at, version, last_seq, preview)
     VALUES (@userId, @channelId, NULL, @variables, @userData, NULL, @now, @now, 1, 0, @preview)
     ON CONFLICT (user_id) DO NOTHING
     RETURNING *`,
  );
  const update = db.prepare(
    `UPDATE users SET position = @position, variables = @variables, user_data = @userData,
                      last_message_at = @lastMessageAt, last_trigger = @lastTrigger, updated_at = @now, version = version + 1,
                      pending_seq = CASE WHEN @clearPending = 1 THEN NULL ELSE pending_seq END
     WHERE user_id = @userId AND version = @expectedVersion`,
  );

  // Check and write in one transaction so nothing slips between them.
  const updateTx = db.transaction((userId: string, expectedVersion: number, patch: UserPatch, now: number) => {
    const row = select.get(userId);
    if (row === undefined || row.version !== expectedVersion) return null;
    const current = toUser(row);
    const changed = update.run({
      userId,
      expectedVersion,
      now,
      position: encodePosition(patch.position === undefined ? current.position : patch.position),
      variables: toJson(patch.variables ?? current.variables),
      userData: toJson(patch.userData ?? current.userData),
      lastMessageAt: patch.lastMessageAt === undefined ? current.lastMessageAt : patch.lastMessageAt,
      lastTrigger: patch.lastTrigger ?? current.lastTrigger,
      clearPending: patch.pendingSeq === null ? 1 : 0,
    });
    if (changed.changes !== 1) return null;
    const after = select.get(userId);
    return after === undefined ? null : toUser(after);
  });

  // New users come in bursts (triggers for many users): created in group commits.
  const ensureGrouped = groupCommit(db, (user: NewUser) => {
    const row =
      insert.get({
        userId: user.userId,
        channelId: user.channelId,
        variables: toJson(user.variables ?? {}),
        userData: toJson(user.userData ?? {}),
        now: user.now,
        preview: user.preview ? toJson({ accountId: user.preview.accountId }) : null,
      }) ?? select.get(user.userId);
    if (row === undefined) throw new Error(`user ${user.userId} vanished right after ensureUser`);
    return toUser(row);
  });

  // The partial index users_preview holds the preview users only.
  const previews = db.prepare<[], [string]>('SELECT user_id FROM users WHERE preview IS NOT NULL').raw(true);

  return {
    async getUser(userId) {
      const row = select.get(userId);
      return row === undefined ? null : toUser(row);
    },

    async previewUsers() {
      return previews.all().map(([userId]) => userId);
    },

    async ensureUser(user: NewUser) {
      // Most calls find the user: a read, and no write transaction at all.
      const existing = select.get(user.userId);
      if (existing !== undefined) return toUser(existing);
      return ensureGrouped(user);
    },

    async updateUser(userId, expectedVersion, patch, now) {
      return updateTx.immediate(userId, expectedVersion, patch, now);
    },
  };
}

function encodePosition(position: ConversationPosition | null): string | null {
  return position === null ? null : toJson(position);
}
