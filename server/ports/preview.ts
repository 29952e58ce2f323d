/**
 * Preview users: the conversations a studio author runs on their draft (the designer's preview
 * panel), on the same engine and store as everyone else's.
 *
 * THE MARKER, for every part that lists, counts or exports users (exports, insights, counts, the
 * NLP log): a user record whose `preview` field is set (`UserRecord.preview`, a PreviewMark) is a
 * preview user. Stored as:
 *   - SQLite: the `users.preview` column (JSON text of the mark), NULL for everyone else;
 *     a partial index `users_preview` covers `WHERE preview IS NOT NULL`.
 *   - MongoDB: the `preview` field of the user document, absent for everyone else.
 * The mark is written when the user is created (`NewUser.preview`) and never changes.
 *
 * What the stores promise (contract: stores/contract/preview-cases.ts): exportUsers,
 * exportKnownUsers, exportTranscript and RestingUsers.countResting never list or count a preview
 * user. What the preview promises (server/studio-server/preview/): a preview user's turns write no log
 * rows at all (NLP log, FAQ log, integration log, email, SMS, URL clicks, user-data snapshots),
 * take no durable jobs, and add to no metric; they are erased when the author restarts or ends
 * the preview, and by `PreviewUsers` sweeps of previews left behind.
 */
export interface PreviewMark {
  /** The studio account whose preview this is. */
  readonly accountId: string;
}

/** A preview user as the sweep sees it. */
export interface PreviewUserRow {
  readonly userId: string;
  readonly accountId: string;
  /** The user's last change (epoch ms). */
  readonly updatedAt: number;
}

/** Finds the preview users a store holds, to erase those of an author or those left behind. */
export interface PreviewUsers {
  /**
   * Preview users, oldest change first, at most `limit`: of one account when `accountId` is
   * given, and only those last changed before `updatedBefore` when it is.
   */
  listPreviewUsers(query: {
    readonly accountId?: string;
    readonly updatedBefore?: number;
    readonly limit: number;
  }): Promise<PreviewUserRow[]>;
}
