import type { Database } from './database.ts';
import type { DueJobs, Store } from '../../ports/store.ts';

/** The job queue's depth and age, read through the jobs_due index (pending jobs by run_at). */
export function sqliteJobStats(db: Database): Pick<Store, 'dueJobs'> {
  const due = db.prepare<[number], DueJobs>(
    "SELECT kind, count(*) AS count, min(run_at) AS oldestRunAt FROM jobs WHERE status = 'pending' AND run_at <= ? GROUP BY kind ORDER BY kind",
  );
  return {
    async dueJobs(now) {
      // Rows come with no prototype: the port hands out plain objects.
      return due.all(now).map(({ kind, count, oldestRunAt }) => ({ kind, count, oldestRunAt }));
    },
  };
}
