import type { Database } from './database.ts';
import type { ClaimRequest, Job } from '../../ports/store.ts';
import type { JobClaims } from '../common/job-parts.ts';
import { jobOf, type StoredJob } from '../common/stored-job.ts';
import { groupCommit } from './group-commit.ts';
import { COMPLETE_JOB_SQL, STORED_JOB } from './job-table.ts';

/** Workers' side of the jobs: due jobs claimed under a lease, and each claim settled by its holder. */
export function sqliteJobClaims(db: Database): JobClaims {
  const select = db.prepare<[string], StoredJob>(`SELECT ${STORED_JOB} FROM jobs WHERE id = ?`);
  // Due jobs in (run_at, id) order: pending ones that are due, and running ones whose lease
  // ran out. Each half is read on its own (the jobs_due index walks pending ones in run_at
  // order and stops at the limit; jobs_leases reads only expired leases, not every job in
  // flight) and the two are merged: one query with an OR would read and sort every due job,
  // the whole backlog, on each claim.
  const dueSql = (kindFilter: string) =>
    `SELECT ${STORED_JOB} FROM (SELECT * FROM jobs WHERE status = 'pending' AND run_at <= ?${kindFilter} ORDER BY run_at, id LIMIT ?)
     UNION ALL
     SELECT ${STORED_JOB} FROM (SELECT * FROM jobs INDEXED BY jobs_leases WHERE status = 'running' AND lease_until <= ?${kindFilter} ORDER BY run_at, id LIMIT ?)
     ORDER BY runAt, id LIMIT ?`;
  const due = db.prepare<[number, number, number, number, number], StoredJob>(dueSql(''));
  const dueOfKindsByCount = new Map<number, ReturnType<typeof db.prepare<unknown[], StoredJob>>>();
  const dueOfKinds = (count: number) => {
    let statement = dueOfKindsByCount.get(count);
    if (statement === undefined) {
      statement = db.prepare<unknown[], StoredJob>(
        dueSql(` AND kind IN (${Array.from({ length: count }, () => '?').join(', ')})`),
      );
      dueOfKindsByCount.set(count, statement);
    }
    return statement;
  };
  const claim = db.prepare(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?
     WHERE id = ?`,
  );
  // The claim counted an attempt; a job that only waited gives it back.
  const defer = db.prepare(
    `UPDATE jobs SET status = 'pending', run_at = ?, attempts = max(attempts - 1, 0), lease_owner = NULL, lease_until = NULL
     WHERE id = ? AND status = 'running' AND lease_owner = ?`,
  );
  const complete = db.prepare(COMPLETE_JOB_SQL);
  const retry = db.prepare(
    `UPDATE jobs SET status = 'pending', run_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL
     WHERE id = ?`,
  );
  const bury = db.prepare(
    `UPDATE jobs SET status = 'dead', last_error = ?, lease_owner = NULL, lease_until = NULL
     WHERE id = ?`,
  );

  // Select and mark in one write transaction: a second worker sees them taken. Grouped with
  // the turn's other writes, so a poll under load adds no commit of its own.
  const claimGrouped = groupCommit(db, (request: ClaimRequest): Job[] => {
    if (request.limit <= 0 || request.kinds?.length === 0) return [];
    const rows =
      request.kinds === undefined
        ? due.all(request.now, request.limit, request.now, request.limit, request.limit)
        : dueOfKinds(request.kinds.length).all(
            request.now,
            ...request.kinds,
            request.limit,
            request.now,
            ...request.kinds,
            request.limit,
            request.limit,
          );
    const leaseUntil = request.now + request.leaseMs;
    return rows.map((row) => {
      claim.run(request.workerId, leaseUntil, row.id);
      return jobOf({ ...row, status: 'running', attempts: row.attempts + 1, leaseOwner: request.workerId, leaseUntil });
    });
  });

  const failTx = db.transaction((id: string, workerId: string, error: string, retryAt: number | null): boolean => {
    const row = select.get(id);
    if (row === undefined || row.status !== 'running' || row.leaseOwner !== workerId) return false;
    if (retryAt !== null && row.attempts < row.maxAttempts) retry.run(retryAt, error, id);
    else bury.run(error, id);
    return true;
  });

  // One statement: no savepoint of its own is needed (group-commit.ts).
  const completeGrouped = groupCommit(
    db,
    ({ id, workerId }: { id: string; workerId: string }) => complete.run(id, workerId).changes === 1,
    { singleStatement: true },
  );

  return {
    async claimJobs(request) {
      return claimGrouped(request);
    },
    async deferJob(id, workerId, runAt) {
      return defer.run(runAt, id, workerId).changes === 1;
    },
    async completeJob(id, workerId) {
      return completeGrouped({ id, workerId });
    },
    async failJob(id, workerId, error, retryAt) {
      return failTx.immediate(id, workerId, error, retryAt);
    },
  };
}
