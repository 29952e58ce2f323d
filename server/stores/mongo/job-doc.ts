import type { Collection, Filter } from 'mongodb';
import type { ClaimRequest, Job, NewJob } from '../../ports/store.ts';
import { jobOf, newStoredJob, type StoredJob } from '../common/stored-job.ts';
import type { KeyLocks } from './key-lock.ts';
import { isDuplicateKey } from './mongo-common.ts';

/** A stored job under the collection's `_id`. */
export interface JobDoc extends Omit<StoredJob, 'id' | 'group'> {
  _id: string;
  /** Absent on jobs stored before groups existed: read as null. */
  group?: string | null;
}

export function toJob({ _id, group, ...doc }: JobDoc): Job {
  return jobOf({ ...doc, id: _id, group: group ?? null });
}

/** The stored form of a newly scheduled job; turn commits write it too (mongo-turns.ts). */
export function newJobDoc(job: NewJob): JobDoc {
  const { id, ...stored } = newStoredJob(job);
  return { _id: id, ...stored };
}

/** A job's lock: every change of a job is made under it. */
export const lockKey = (id: string) => `job:${id}`;

/** What a job that is no longer running holds of its lease: nothing. */
export const released = { leaseOwner: null, leaseUntil: null };

/** Due jobs: pending ones whose time has come, and running ones whose lease ran out. */
export function dueFilter(request: ClaimRequest): Filter<JobDoc> {
  return {
    $or: [
      { status: 'pending', runAt: { $lte: request.now } },
      { status: 'running', leaseUntil: { $lte: request.now } },
    ],
    ...(request.kinds === undefined ? {} : { kind: { $in: [...request.kinds] } }),
  };
}

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

/**
 * A change of one job when it matches `filter`, in one write under the job's lock (see key-lock.ts
 * for why a filtered update alone is not enough on FerretDB); true when it matched.
 */
export function updateJob(
  locks: KeyLocks,
  jobs: Collection<JobDoc>,
  id: string,
  filter: Filter<JobDoc>,
  set: Partial<JobDoc>,
  inc?: Partial<Record<'attempts', number>>,
): Promise<boolean> {
  return locks.withLock(
    lockKey(id),
    async () =>
      (await jobs.updateOne({ _id: id, ...filter }, { $set: set, ...(inc ? { $inc: inc } : {}) })).matchedCount === 1,
  );
}
