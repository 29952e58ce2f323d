import type { NewJob } from '../../ports/store.ts';
import { newStoredJob, type StoredJob } from '../common/stored-job.ts';
import { columns, table, upsertInto, valuesOf } from './table.ts';

/** The jobs table (migrations 1 and 6): a row read through its columns is a StoredJob. */
export const JOBS = table<StoredJob>('jobs', {
  id: 'id',
  kind: 'kind',
  payload: 'payload',
  runAt: 'run_at',
  status: 'status',
  attempts: 'attempts',
  maxAttempts: 'max_attempts',
  group: 'job_group',
  leaseOwner: 'lease_owner',
  leaseUntil: 'lease_until',
  lastError: 'last_error',
});

export const STORED_JOB = columns(JOBS);

/** Schedules a job: a running job keeps going; anything else under this id starts over. Shared with turn commits (sqlite-turns.ts). */
export const SCHEDULE_JOB_SQL = `${upsertInto(JOBS, 'id', { byPosition: true })} WHERE jobs.status <> 'running'`;

/** Cancels a job that has not finished. Shared with turn commits (sqlite-turns.ts). */
export const CANCEL_JOB_SQL = `UPDATE jobs SET status = 'cancelled', lease_owner = NULL, lease_until = NULL
     WHERE id = ? AND status IN ('pending', 'running')`;

/** Finishes a job its holder ran (id, worker id). Shared with turn commits (sqlite-turns.ts). */
export const COMPLETE_JOB_SQL = `UPDATE jobs SET status = 'done', lease_owner = NULL, lease_until = NULL
     WHERE id = ? AND status = 'running' AND lease_owner = ?`;

const jobValues = valuesOf(JOBS);

/** A new job as SCHEDULE_JOB_SQL's parameters (spread them: they are bound by position). */
export const scheduleParams = (job: NewJob): unknown[] => jobValues(newStoredJob(job));
