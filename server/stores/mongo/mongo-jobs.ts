import type { Db } from 'mongodb';
import type { JobClaims, JobSchedule } from '../common/job-parts.ts';
import { lockKey, newJobDoc, released, toJob, updateJob, writeJob, type JobDoc } from './job-doc.ts';
import type { KeyLocks } from './key-lock.ts';
import { mongoJobClaims } from './mongo-job-claims.ts';
import { COLLECTIONS } from './mongo-common.ts';

/*
 * Every change of a job is made under the job's lock (see key-lock.ts for why a
 * filtered update alone is not enough on FerretDB); under it, one filtered write
 * (update, findOneAndUpdate, replace) is the whole change, so a settle costs one
 * round trip besides the lock (none with process locks, on one node).
 * MongoDB features used: replaceOne with upsert (duplicate key 11000 keeps a running job),
 * updateOne and findOneAndUpdate with filters, $set and $inc, find with sort and limit.
 */
export function mongoJobs(db: Db, locks: KeyLocks): JobSchedule & JobClaims {
  return { ...mongoJobSchedule(db, locks), ...mongoJobClaims(db, locks) };
}

/** Scheduling, reading and cancelling jobs. */
function mongoJobSchedule(db: Db, locks: KeyLocks): JobSchedule {
  const jobs = db.collection<JobDoc>(COLLECTIONS.jobs);
  return {
    scheduleJob: (job) => locks.withLock(lockKey(job.id), () => writeJob(jobs, newJobDoc(job))),

    async getJob(id) {
      const doc = await jobs.findOne({ _id: id });
      return doc === null ? null : toJob(doc);
    },

    cancelJob: (id) =>
      updateJob(locks, jobs, id, { status: { $in: ['pending', 'running'] } }, { status: 'cancelled', ...released }),

    async firstUnfinishedJob(group, afterId, beforeId, through = false) {
      const upTo = through ? { $lte: beforeId } : { $lt: beforeId };
      const doc = await jobs.findOne(
        { group, _id: { $gt: afterId, ...upTo }, status: { $in: ['pending', 'running'] } },
        { sort: { _id: 1 }, projection: { status: 1, runAt: 1, leaseOwner: 1, leaseUntil: 1 } },
      );
      if (doc === null) return null;
      return {
        id: doc._id,
        group,
        status: doc.status,
        runAt: doc.runAt,
        leaseOwner: doc.leaseOwner,
        leaseUntil: doc.leaseUntil,
      };
    },
  };
}
