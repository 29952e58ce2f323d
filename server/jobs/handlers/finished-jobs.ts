import { INBOX_KEEP_MS } from '../../ports/channel-inbox.ts';
import type { Store } from '../../ports/store.ts';

const DAY_MS = 86_400_000;

/**
 * How long a finished job (done, dead, cancelled) is kept, counted from its runAt. What needs one
 * afterwards is the webhook's redelivery check: while an inbound event is remembered (INBOX_KEEP_MS,
 * purged hourly), a copy of it that finds no job for it schedules that job again. A turn's job runs at
 * or after its event's arrival, so keeping jobs a day beyond the inbox keeps them whatever the hour
 * each purge runs. Nothing else reads a finished job: scheduling an id again restarts any job that is
 * not running, stored or not, and a job group waits on unfinished jobs only.
 */
export const FINISHED_JOBS_KEEP_MS = INBOX_KEEP_MS + DAY_MS;

/**
 * Finished jobs removed per housekeeping run: a few seconds' work, well inside the job's lease. A run
 * that removes this many comes back a minute later (FINISHED_JOBS_AGAIN_MS) until the backlog is gone.
 */
export const FINISHED_JOBS_PER_RUN = 5000;
export const FINISHED_JOBS_AGAIN_MS = 60_000;

/** Removes finished jobs whose runAt is more than FINISHED_JOBS_KEEP_MS ago, FINISHED_JOBS_PER_RUN at most; answers how many and whether some may be left. */
export async function purgeFinishedJobs(
  store: Pick<Store, 'purgeFinishedJobs'>,
  now: number,
): Promise<{ readonly removed: number; readonly more: boolean }> {
  const removed = await store.purgeFinishedJobs(now - FINISHED_JOBS_KEEP_MS, FINISHED_JOBS_PER_RUN);
  return { removed, more: removed >= FINISHED_JOBS_PER_RUN };
}
