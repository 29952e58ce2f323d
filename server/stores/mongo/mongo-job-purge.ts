import type { Db } from 'mongodb';
import type { Store } from '../../ports/store.ts';
import { lockKey, type JobDoc } from './job-doc.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS } from './mongo-common.ts';

/** Jobs read per batch; each is then removed on its own. */
const PURGE_BATCH = 500;
const FINISHED: JobDoc['status'][] = ['done', 'dead', 'cancelled'];

/**
 * Finished jobs removed a batch at a time. MongoDB features used: find with a filter ($in on status,
 * $lt on runAt, served by the `due` index on status and runAt), a projection and a limit; deleteOne
 * with a filter. Each delete is made under the job's lock and checks again that the job is finished:
 * on FerretDB 1.x a filtered write is a query then a write (key-lock.ts), and a job scheduled again
 * under the same id in between must stay.
 */
export function mongoJobPurge(db: Db, locks: KeyLocks): Pick<Store, 'purgeFinishedJobs'> {
  const jobs = db.collection<JobDoc>(COLLECTIONS.jobs);
  return {
    async purgeFinishedJobs(before, limit) {
      const filter = { status: { $in: FINISHED }, runAt: { $lt: before } };
      let removed = 0;
      while (removed < limit) {
        const size = Math.min(PURGE_BATCH, limit - removed);
        const batch = await jobs.find(filter, { projection: { _id: 1 }, limit: size }).toArray();
        for (const { _id } of batch) {
          const deleted = await locks.withLock(lockKey(_id), () => jobs.deleteOne({ _id, ...filter }));
          removed += deleted.deletedCount;
        }
        if (batch.length < size) break;
      }
      return removed;
    },
  };
}
