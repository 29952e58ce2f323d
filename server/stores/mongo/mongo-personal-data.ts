import type { Db, ObjectId } from 'mongodb';
import { emptyLogCounts, jobPayloadUser, type PersonalDataStore } from '../../ports/personal-data.ts';
import { LOG_KINDS } from '../../ports/store.ts';
import type { PersonalDataExports, PersonalDataRemoval } from '../common/personal-data-parts.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS, fromJson } from './mongo-common.ts';
import { mongoExports } from './mongo-exports.ts';
import type { LogDoc } from './mongo-logs.ts';
import type { TranscriptDoc } from './transcript-doc.ts';
import { userLockKey, type UserDoc } from './user-doc.ts';

interface JobRef {
  _id: string;
  payload: string;
}

/** Escapes text for use inside a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the store keeps of people: erased on request, purged by retention, exported (mongo-exports.ts). */
export function mongoPersonalData(db: Db, locks: KeyLocks): PersonalDataStore & PersonalDataExports {
  return { ...mongoRemoval(db, locks), ...mongoExports(db) };
}

/** A user's erasure (under the user's lock) and retention's purge. MongoDB features used: deleteMany, deleteOne, $regex. */
function mongoRemoval(db: Db, locks: KeyLocks): PersonalDataRemoval {
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
  };
}
