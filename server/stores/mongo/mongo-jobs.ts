import type { Collection, Db, Filter } from 'mongodb';
import type { ClaimRequest, Job, NewJob, Store } from '../../ports/store.ts';
import { jobOf, newStoredJob, type StoredJob } from '../common/stored-job.ts';
import type { KeyLocks } from './key-lock.ts';
import { retryTransient } from './transient.ts';
import { COLLECTIONS, isDuplicateKey } from './mongo-common.ts';

/** A stored job under the collection's `_id`. */
export interface JobDoc extends Omit<StoredJob, 'id' | 'group'> {
  _id: string;
  /** Absent on jobs stored before groups existed: read as null. */
  group?: string | null;
}

function toJob({ _id, group, ...doc }: JobDoc): Job {
  return jobOf({ ...doc, id: _id, group: group ?? null });
}

/** Rounds of find-then-claim when other workers keep winning the candidates. */
const CLAIM_ROUNDS = 5;

type JobOps = Pick<
  Store,
  'scheduleJob' | 'getJob' | 'cancelJob' | 'claimJobs' | 'firstUnfinishedJob' | 'deferJob' | 'completeJob' | 'failJob'
>;

/** Due jobs: pending ones whose time has come, and running ones whose lease ran out. */
function dueFilter(request: ClaimRequest): Filter<JobDoc> {
  return {
    $or: [
      { status: 'pending', runAt: { $lte: request.now } },
      { status: 'running', leaseUntil: { $lte: request.now } },
    ],
    ...(request.kinds === undefined ? {} : { kind: { $in: [...request.kinds] } }),
  };
}

/** The stored form of a newly scheduled job; turn commits write it too (mongo-turns.ts). */
export function newJobDoc(job: NewJob): JobDoc {
  const { id, ...stored } = newStoredJob(job);
  return { _id: id, ...stored };
}

/** A job's lock: every change of a job is made under it. */
export const lockKey = (id: string) => `job:${id}`;

/**
 * Schedules a job as Store.scheduleJob does, in one write: replaces the stored job
 * unless it is running, else inserts it; a running one is kept (the insert finds its
 * _id taken). The caller holds the job's lock. False when a running job was kept.
 */
export async function writeJob(jobs: Collection<JobDoc>, doc: JobDoc): Promise<boolean> {
  try {
    await jobs.replaceOne({ _id: doc._id, status: { $ne: 'running' } }, doc, { upsert: true });
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

const released = { leaseOwner: null, leaseUntil: null };

/*
 * Every change of a job is made under the job's lock (see key-lock.ts for why a
 * filtered update alone is not enough on FerretDB); under it, one filtered write
 * (update, findOneAndUpdate, replace) is the whole change, so a settle costs one
 * round trip besides the lock (none with process locks, on one node).
 */
export function mongoJobs(db: Db, locks: KeyLocks): JobOps {
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

  /** Applies `set` to the job when it matches `filter`, in one write under the job's lock; true when applied. */
  const update = (
    id: string,
    filter: Filter<JobDoc>,
    set: Partial<JobDoc>,
    inc?: Partial<Record<'attempts', number>>,
  ) =>
    locks.withLock(
      lockKey(id),
      async () =>
        (await jobs.updateOne({ _id: id, ...filter }, { $set: set, ...(inc ? { $inc: inc } : {}) })).matchedCount === 1,
    );

  return {
    scheduleJob: (job) => locks.withLock(lockKey(job.id), () => writeJob(jobs, newJobDoc(job))),

    async getJob(id) {
      const doc = await jobs.findOne({ _id: id });
      return doc === null ? null : toJob(doc);
    },

    cancelJob: (id) => update(id, { status: { $in: ['pending', 'running'] } }, { status: 'cancelled', ...released }),

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

    async firstUnfinishedJob(group, afterId, beforeId) {
      const doc = await jobs.findOne(
        { group, _id: { $gt: afterId, $lt: beforeId }, status: { $in: ['pending', 'running'] } },
        { sort: { _id: 1 } },
      );
      return doc === null ? null : toJob(doc);
    },

    // The claim counted an attempt; a job that only waited gives it back.
    deferJob: (id, workerId, runAt) =>
      update(
        id,
        { status: 'running', leaseOwner: workerId },
        { status: 'pending', runAt, ...released },
        { attempts: -1 },
      ),

    completeJob: (id, workerId) =>
      update(id, { status: 'running', leaseOwner: workerId }, { status: 'done', ...released }),

    failJob: (id, workerId, error, retryAt) =>
      settle(id, (doc) => {
        if (doc.status !== 'running' || doc.leaseOwner !== workerId) return null;
        return retryAt !== null && doc.attempts < doc.maxAttempts
          ? { status: 'pending', runAt: retryAt, lastError: error, ...released }
          : { status: 'dead', lastError: error, ...released };
      }),
  };
}
