import type { Filter, ObjectId } from 'mongodb';
import type { PreviewMark } from '../../ports/preview.ts';
import type { ConversationPosition, UserRecord } from '../../ports/store.ts';
import { fromJson } from './mongo-common.ts';
import type { TranscriptDoc } from './transcript-doc.ts';
import type { OutboxDoc } from './turn-outbox.ts';
import type { RecentClientId } from './unsent-entries.ts';

/** A user as the users collection stores it. */
export interface UserDoc {
  _id: string;
  channelId: string;
  position: ConversationPosition | null;
  variables: string;
  userData: string;
  lastMessageAt: number | null;
  /**
   * lastMessageAt, or createdAt while the user never wrote: the userData export's time
   * (spec 4.1 rule 1), kept as a field of its own so one index (by_listed) serves it.
   * Absent on documents stored before it existed, until start-up fills it in (indexes.ts).
   */
  listedAt?: number;
  createdAt: number;
  updatedAt: number;
  version: number;
  lastSeq: number;
  /** The bot entries of the last turn, kept until they are surely stored (see unsent-entries.ts). */
  unsent?: TranscriptDoc[];
  /** The clientIds of the user's latest messages (unsent-entries.ts); absent on older documents. */
  recent?: RecentClientId[];
  /** The last turn's outbox until it is moved (turn-outbox.ts), and when it was written. */
  outbox?: OutboxDoc | null;
  outboxAt?: number | null;
  /**
   * Whether an outbox waits to be moved: what the sweep looks for. A flag compared for equality, because
   * FerretDB 1.x filters that in PostgreSQL but hands every document to Go for a range (`outboxAt`);
   * absent on users stored before it (upgrades.ts sets it where an outbox waits).
   */
  outboxHeld?: boolean;
  /** Absent on users stored before triggers were marked: read as null. */
  lastTrigger?: string | null;
  /** Seq of a stored message whose turn failed and is to run again; absent or null when none. */
  pendingSeq?: number | null;
  /** Creation order, the tie-break of exports: an ObjectId for the reason given in mongo-logs.ts. */
  order: ObjectId;
  /** Set on a studio author's preview user only (ports/preview.ts); absent for everyone else. */
  preview?: PreviewMark;
}

export function toUser(doc: UserDoc): UserRecord {
  return {
    userId: doc._id,
    channelId: doc.channelId,
    position:
      doc.position === null
        ? null
        : {
            dialogId: doc.position.dialogId,
            stepId: doc.position.stepId,
            awaiting: doc.position.awaiting,
            retries: doc.position.retries,
          },
    variables: fromJson(doc.variables),
    userData: fromJson(doc.userData),
    lastMessageAt: doc.lastMessageAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    version: doc.version,
    lastSeq: doc.lastSeq,
    lastTrigger: doc.lastTrigger ?? null,
    ...(doc.pendingSeq === undefined || doc.pendingSeq === null ? {} : { pendingSeq: doc.pendingSeq }),
    ...(doc.preview ? { preview: { accountId: doc.preview.accountId } } : {}),
  };
}

/** The lock every writer of a user document holds (see key-lock.ts). */
export function userLockKey(userId: string): string {
  return `user:${userId}`;
}

/** Every preview user, through the `previews` index (indexes.ts): a string range leaves out users without the mark. */
export const PREVIEW_USERS: Filter<UserDoc> = { 'preview.accountId': { $gte: '' } };
