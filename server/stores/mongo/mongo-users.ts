import { ObjectId, type Db, type Filter } from 'mongodb';
import type { PreviewMark } from '../../ports/preview.ts';
import type { ConversationPosition, RangeQuery, Store, UserExportRow, UserRecord } from '../../ports/store.ts';
import { batchSizeOf, encodeCursor } from '../range-cursor.ts';
import type { KeyLocks } from './key-lock.ts';
import type { TranscriptDoc } from './mongo-transcript.ts';
import type { OutboxDoc } from './turn-outbox.ts';
import type { RecentClientId } from './unsent-entries.ts';
import type { UserDocCache } from './user-doc-cache.ts';
import { COLLECTIONS, decodeObjectIdCursor, fromJson, isDuplicateKey, toJson } from './mongo-common.ts';

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

type UserOps = Pick<Store, 'getUser' | 'ensureUser' | 'updateUser' | 'exportUsers' | 'previewUsers'>;

/** The lock every writer of a user document holds (see key-lock.ts). */
export function userLockKey(userId: string): string {
  return `user:${userId}`;
}

export function mongoUsers(db: Db, locks: KeyLocks, cache?: UserDocCache): UserOps {
  const users = db.collection<UserDoc>(COLLECTIONS.users);

  return {
    async getUser(userId) {
      const doc = await users.findOne({ _id: userId });
      if (doc === null) {
        cache?.forget(userId);
        return null;
      }
      cache?.put(doc);
      return toUser(doc);
    },

    async previewUsers() {
      // The previews index: a string range on the mark leaves out every user without one.
      return (await users.find({ 'preview.accountId': { $gte: '' } }, { projection: { _id: 1 } }).toArray()).map(
        (doc) => doc._id,
      );
    },

    async ensureUser(user) {
      const existing = await users.findOne({ _id: user.userId });
      if (existing !== null) return toUser(existing);
      const doc: UserDoc = {
        _id: user.userId,
        channelId: user.channelId,
        position: null,
        variables: toJson(user.variables ?? {}),
        userData: toJson(user.userData ?? {}),
        lastMessageAt: null,
        listedAt: user.now,
        createdAt: user.now,
        updatedAt: user.now,
        version: 1,
        lastSeq: 0,
        lastTrigger: null,
        recent: [],
        order: new ObjectId(),
        ...(user.preview ? { preview: { accountId: user.preview.accountId } } : {}),
      };
      try {
        await users.insertOne(doc);
        return toUser(doc);
      } catch (error) {
        // Another writer created the user in between: theirs stands.
        if (!isDuplicateKey(error)) throw error;
        const winner = await users.findOne({ _id: user.userId });
        if (winner === null) throw new Error(`user ${user.userId} vanished right after a duplicate insert`);
        return toUser(winner);
      }
    },

    async updateUser(userId, expectedVersion, patch, now) {
      const set: Partial<UserDoc> = { updatedAt: now };
      if (patch.position !== undefined) set.position = patch.position;
      if (patch.variables !== undefined) set.variables = toJson(patch.variables);
      if (patch.userData !== undefined) set.userData = toJson(patch.userData);
      if (patch.lastMessageAt !== undefined) set.lastMessageAt = patch.lastMessageAt;
      if (typeof patch.lastMessageAt === 'number') set.listedAt = patch.lastMessageAt;
      if (patch.lastTrigger !== undefined) set.lastTrigger = patch.lastTrigger;
      if (patch.pendingSeq === null) set.pendingSeq = null;
      // Compare and set: findOneAndUpdate on a version filter is atomic on MongoDB by itself;
      // on FerretDB it is not, so it runs under the user's lock, which makes it so there.
      return locks.withLock(userLockKey(userId), async () => {
        // A user made to have never written is listed by their creation again.
        if (patch.lastMessageAt === null) {
          const current = await users.findOne({ _id: userId }, { projection: { createdAt: 1 } });
          if (current !== null) set.listedAt = current.createdAt;
        }
        const next = await users.findOneAndUpdate(
          { _id: userId, version: expectedVersion },
          { $set: { ...set, version: expectedVersion + 1 } },
          { returnDocument: 'after' },
        );
        return next === null ? null : toUser(next);
      });
    },

    async *exportUsers(query: RangeQuery): AsyncIterable<UserExportRow> {
      const batchSize = batchSizeOf(query.batchSize);
      let after = query.after === undefined ? null : decodeObjectIdCursor(query.after);
      const range: Filter<UserDoc> = {
        lastMessageAt: {
          $ne: null,
          ...(query.fromMs === undefined ? {} : { $gte: query.fromMs }),
          ...(query.toMs === undefined ? {} : { $lt: query.toMs }),
        },
        preview: { $exists: false },
      };
      // A fresh query per batch: no server cursor outlives a slow consumer.
      for (;;) {
        const filter: Filter<UserDoc> =
          after === null
            ? range
            : {
                $and: [
                  range,
                  { $or: [{ lastMessageAt: { $gt: after.t } }, { lastMessageAt: after.t, order: { $gt: after.o } }] },
                ],
              };
        const docs = await users.find(filter).sort({ lastMessageAt: 1, order: 1 }).limit(batchSize).toArray();
        for (const doc of docs) {
          const timestamp = doc.lastMessageAt as number;
          yield {
            userId: doc._id,
            timestamp,
            userData: fromJson(doc.userData),
            cursor: encodeCursor({ t: timestamp, o: doc.order.toHexString() }),
          };
        }
        const last = docs.at(-1);
        if (last === undefined || docs.length < batchSize) return;
        after = { t: last.lastMessageAt as number, o: last.order };
      }
    },
  };
}
