import type { Db } from 'mongodb';
import type { ClaimRequest, Job } from '../../ports/store.ts';
import type { JobClaims } from '../common/job-parts.ts';
import { dueFilter, lockKey, released, toJob, updateJob, type JobDoc } from './job-doc.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS } from './mongo-common.ts';
import { retryTransient } from './transient.ts';

/** Rounds of find-then-claim when other workers keep winning the candidates. */
const CLAIM_ROUNDS = 5;

/** Workers' side of the jobs: due jobs claimed under a lease, and each claim settled by its holder. */
export function mongoJobClaims(db: Db, locks: KeyLocks): JobClaims {
  const jobs = db.collection<JobDoc>(COLLECTIONS.jobs);

  /** Applies `change` to the job if `accept` approves the stored version; true when applied. */
  const settle = (id: string, accept: (doc: JobDoc) => Partial<JobDoc> | null) =>
    locks.withLock(lockKey(id), async () => {
      const doc = await jobs.findOne({ _id: id });
      const change = doc === null ? null : accept(doc);
      if (change === null) return false;
      await jobs.updateOne({ _id: id }, { $set: change });
      return true;
    });

  // Waits for a held lock rather than skipping the job: skipping would let a
  // later job overtake an earlier one that is only briefly locked (being
  // scheduled or claimed elsewhere). Once inside, a job another worker took is
  // no longer claimable and is passed over.
  const claimOne = (id: string, request: ClaimRequest) =>
    locks.withLock(lockKey(id), async (): Promise<Job | null> => {
      // One conditional write: under the lock no one else changes the job in between, on FerretDB too.
      const claimed = await jobs.findOneAndUpdate(
        { _id: id, ...dueFilter(request) },
        {
          $set: { status: 'running', leaseOwner: request.workerId, leaseUntil: request.now + request.leaseMs },
          $inc: { attempts: 1 },
        },
        { returnDocument: 'after' },
      );
      return claimed === null ? null : toJob(claimed);
    });

  return {
    async claimJobs(request) {
      if (request.limit <= 0 || request.kinds?.length === 0) return [];
      const due = dueFilter(request);
      const claimed: Job[] = [];
      for (let round = 0; round < CLAIM_ROUNDS && claimed.length < request.limit; round += 1) {
        // The cursor read alone is retried: retrying the whole claim would forget the jobs already claimed.
        const candidates = await retryTransient(() =>
          jobs
            .find(due, { projection: { _id: 1 } })
            .sort({ runAt: 1, _id: 1 })
            .limit(request.limit - claimed.length)
            .toArray(),
        );
        if (candidates.length === 0) break;
        for (const candidate of candidates) {
          const job = await claimOne(candidate._id, request);
          if (job !== null) claimed.push(job);
        }
      }
      return claimed;
    },

    // The claim counted an attempt; a job that only waited gives it back.
    deferJob: (id, workerId, runAt) =>
      updateJob(
        locks,
        jobs,
        id,
        { status: 'running', leaseOwner: workerId },
        { status: 'pending', runAt, ...released },
        { attempts: -1 },
      ),

    completeJob: (id, workerId) =>
      updateJob(locks, jobs, id, { status: 'running', leaseOwner: workerId }, { status: 'done', ...released }),

    failJob: (id, workerId, error, retryAt) =>
      settle(id, (doc) => {
        if (doc.status !== 'running' || doc.leaseOwner !== workerId) return null;
        return retryAt !== null && doc.attempts < doc.maxAttempts
          ? { status: 'pending', runAt: retryAt, lastError: error, ...released }
          : { status: 'dead', lastError: error, ...released };
      }),
  };
}
