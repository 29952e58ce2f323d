import type { Job, NewJob } from '../../ports/store.ts';

/** A job as both stores keep it: the port's fields, the payload as JSON text. */
export interface StoredJob extends Omit<Job, 'payload'> {
  readonly payload: string;
}

/** What a newly scheduled job is stored as: pending, or already running its first attempt under its lease. */
export function newStoredJob(job: NewJob): StoredJob {
  return {
    id: job.id,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    runAt: job.runAt,
    status: job.lease ? 'running' : 'pending',
    attempts: job.lease ? 1 : 0,
    maxAttempts: job.maxAttempts ?? 1,
    group: job.group ?? null,
    leaseOwner: job.lease?.owner ?? null,
    leaseUntil: job.lease?.until ?? null,
    lastError: null,
  };
}

/** The stored job as the port gives it. */
export function jobOf(stored: StoredJob): Job {
  return { ...stored, payload: JSON.parse(stored.payload) as Job['payload'] };
}
