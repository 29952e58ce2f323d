import { type Db, type Filter, type ObjectId } from 'mongodb';
import {
  emptyLogCounts,
  jobPayloadUser,
  type KnownUserRow,
  type PersonalDataStore,
  type TranscriptExportRow,
} from '../../ports/personal-data.ts';
import { LOG_KINDS, type RangeQuery, type RangeRead } from '../../ports/store.ts';
import { encodeCursor } from '../common/range-cursor.ts';
import { seekRead } from '../common/range-read.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS, fromJson } from './mongo-common.ts';
import { objectIdStart, rangeFilter } from './range-filter.ts';
import type { LogDoc } from './mongo-logs.ts';
import type { TranscriptDoc } from './transcript-doc.ts';
import { userLockKey, type UserDoc } from './user-doc.ts';

interface JobRef {
  _id: string;
  payload: string;
}

/** Escapes text for use inside a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every preview user, through the `previews` index (indexes.ts): a string range leaves out users without the mark. */
export const PREVIEW_USERS: Filter<UserDoc> = { 'preview.accountId': { $gte: '' } };

export function mongoPersonalData(db: Db, locks: KeyLocks): PersonalDataStore {
  const users = db.collection<UserDoc>(COLLECTIONS.users);
  const transcript = db.collection<TranscriptDoc & { _id: ObjectId }>(COLLECTIONS.transcript);
  const logs = db.collection<LogDoc>(COLLECTIONS.logs);
  const jobs = db.collection<JobRef>(COLLECTIONS.jobs);

  return {
    async eraseUser(userId) {
      // Under the user's lock: a turn being written finishes first, or finds the user gone.
      return locks.withLock(userLockKey(userId), async () => {
        const counts = emptyLogCounts(LOG_KINDS);
        for (const kind of LOG_KINDS) counts[kind] = (await logs.deleteMany({ userId, kind })).deletedCount;
        // Payloads are JSON text: a textual pre-filter on the quoted id, then each payload is read to be sure.
        const candidates = await jobs
          .find({ payload: { $regex: literal(JSON.stringify(userId)) } }, { projection: { _id: 1, payload: 1 } })
          .toArray();
        let erasedJobs = 0;
        for (const job of candidates) {
          if (jobPayloadUser(fromJson(job.payload)) === userId)
            erasedJobs += (await jobs.deleteOne({ _id: job._id })).deletedCount;
        }
        const erasedTranscript = (await transcript.deleteMany({ userId })).deletedCount;
        const user = (await users.deleteOne({ _id: userId })).deletedCount;
        return { user, transcript: erasedTranscript, logs: counts, jobs: erasedJobs };
      });
    },

    async purgeOlderThan(cutoffs) {
      let removed = 0;
      const before = cutoffs.transcriptBefore;
      if (before !== undefined) {
        removed = (await transcript.deleteMany({ at: { $lt: before } })).deletedCount;
        // A user's last bot entries also wait in the user document until surely stored
        // (unsent-entries.ts); with the transcript purged they would be stored again.
        // listedAt is never later than updatedAt: its index narrows the search (by_activity is gone).
        const stale = await users
          .find({ listedAt: { $lt: before }, updatedAt: { $lt: before } }, { projection: { _id: 1, unsent: 1 } })
          .toArray();
        for (const doc of stale) {
          if ((doc.unsent ?? []).length === 0) continue;
          await locks.withLock(userLockKey(doc._id), async () => {
            const current = await users.findOne({ _id: doc._id });
            if (current !== null && current.updatedAt < before)
              await users.updateOne({ _id: doc._id }, { $set: { unsent: [] } });
          });
        }
      }
      const counts = emptyLogCounts(LOG_KINDS);
      for (const kind of LOG_KINDS) {
        const cutoff = cutoffs.logsBefore?.[kind];
        if (cutoff !== undefined)
          counts[kind] = (await logs.deleteMany({ kind, timestamp: { $lt: cutoff } })).deletedCount;
      }
      return { transcript: removed, logs: counts };
    },

    exportKnownUsers(query: RangeQuery): RangeRead<KnownUserRow> {
      return seekRead(query.batchSize, {
        start: () => objectIdStart(query),
        // listedAt: the last message, else the creation (UserDoc.listedAt), on the by_listed index.
        fetch: (after, limit) =>
          users
            .find(
              { $and: [rangeFilter<UserDoc>('listedAt', 'order', query, after), { preview: { $exists: false } }] },
              { projection: { _id: 1, listedAt: 1, order: 1, userData: 1 } },
            )
            .sort({ listedAt: 1, order: 1 })
            .limit(limit)
            .toArray(),
        positionOf: (doc) => ({ t: doc.listedAt ?? 0, o: doc.order }),
        toRow: (doc): KnownUserRow => {
          const listedAt = doc.listedAt ?? 0;
          return {
            userId: doc._id,
            timestamp: listedAt,
            userData: fromJson<Record<string, unknown>>(doc.userData),
            cursor: encodeCursor({ t: listedAt, o: doc.order.toHexString() }),
          };
        },
      });
    },

    exportTranscript(query: RangeQuery): RangeRead<TranscriptExportRow> {
      return seekRead(query.batchSize, {
        start: () => objectIdStart(query),
        fetch: async (after, limit) => {
          // Preview users are few (one a studio author at a time): asked again per batch, so one started meanwhile stays out too.
          const previews = (await users.find(PREVIEW_USERS, { projection: { _id: 1 } }).toArray()).map(
            (doc) => doc._id,
          );
          const range = rangeFilter<TranscriptDoc & { _id: ObjectId }>('at', '_id', query, after);
          const filter = previews.length === 0 ? range : { $and: [range, { userId: { $nin: previews } }] };
          return transcript.find(filter).sort({ at: 1, _id: 1 }).limit(limit).toArray();
        },
        positionOf: (doc) => ({ t: doc.at, o: doc._id }),
        toRow: (doc): TranscriptExportRow => ({
          userId: doc.userId,
          seq: doc.seq,
          from: doc.from,
          at: doc.at,
          message: fromJson<Record<string, unknown>>(doc.message),
          dialogId: doc.dialogId ?? null,
          stepId: doc.stepId ?? null,
          cursor: encodeCursor({ t: doc.at, o: doc._id.toHexString() }),
        }),
      });
    },
  };
}
