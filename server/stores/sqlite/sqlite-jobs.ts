import type { Database } from './database.ts';
import type { NewJob, UnfinishedJob } from '../../ports/store.ts';
import type { JobClaims, JobSchedule } from '../common/job-parts.ts';
import { jobOf, type StoredJob } from '../common/stored-job.ts';
import { groupCommit } from './group-commit.ts';
import { CANCEL_JOB_SQL, SCHEDULE_JOB_SQL, scheduleParams, STORED_JOB } from './job-table.ts';
import { sqliteJobClaims } from './sqlite-job-claims.ts';

/** The jobs: scheduled, read and cancelled here; claimed and settled by workers (sqlite-job-claims.ts). */
export function sqliteJobs(db: Database): JobSchedule & JobClaims {
  return { ...sqliteJobSchedule(db), ...sqliteJobClaims(db) };
}

function sqliteJobSchedule(db: Database): JobSchedule {
  const select = db.prepare<[string], StoredJob>(`SELECT ${STORED_JOB} FROM jobs WHERE id = ?`);
  const schedule = db.prepare(SCHEDULE_JOB_SQL);
  const cancel = db.prepare(CANCEL_JOB_SQL);
  // Only the jobs between the two ids are read, through jobs_by_group; of them, where they stand.
  const firstUnfinishedSql = (upTo: '<' | '<=') =>
    `SELECT id, job_group AS "group", status, run_at AS "runAt", lease_owner AS "leaseOwner", lease_until AS "leaseUntil"
     FROM jobs INDEXED BY jobs_by_group
     WHERE job_group = ? AND id > ? AND id ${upTo} ? AND status IN ('pending', 'running')
     ORDER BY id LIMIT 1`;
  const firstUnfinished = db.prepare<[string, string, string], UnfinishedJob>(firstUnfinishedSql('<'));
  const firstUnfinishedThrough = db.prepare<[string, string, string], UnfinishedJob>(firstUnfinishedSql('<='));

  // Triggers arrive in bursts; each is durable before its caller hears back (group-commit.ts).
  // One statement each: no savepoint of their own is needed.
  const scheduleGrouped = groupCommit(db, (job: NewJob) => schedule.run(...scheduleParams(job)).changes === 1, {
    singleStatement: true,
  });

  return {
    scheduleJob: scheduleGrouped,
    async getJob(id) {
      const row = select.get(id);
      return row === undefined ? null : jobOf(row);
    },
    async cancelJob(id) {
      return cancel.run(id).changes === 1;
    },
    async firstUnfinishedJob(group, afterId, beforeId, through = false) {
      return (through ? firstUnfinishedThrough : firstUnfinished).get(group, afterId, beforeId) ?? null;
    },
  };
}
