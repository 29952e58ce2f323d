import type { AppDeps } from '../../app/deps.ts';
import { eraseUser } from '../../app/erase-user.ts';
import type { PreviewUsers } from '../../ports/preview.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import type { JobHandler } from '../job-runner.ts';

/** The job kind, and the one id it runs under: one sweep per store, whichever node holds it. */
export const PREVIEW_SWEEP_JOB = 'preview-sweep';
/** How often preview users left behind are looked for. */
export const PREVIEW_SWEEP_EVERY_MS = 3_600_000;
/**
 * A preview user unchanged this long is left behind (its server died, or a node of a cluster that
 * ran it did): an author's live preview changes its user on every turn, and a longer pause ends
 * with a restart. Generous, because the sweep cannot ask another node whether it still runs one.
 */
export const PREVIEW_IDLE_MS = 12 * 3_600_000;
/** Users erased per page of the listing; a run goes on until none is left or MAX_PAGES pages. */
const PAGE = 100;
const MAX_PAGES = 50;

export interface PreviewSweepDeps {
  readonly previews: PreviewUsers;
  /** What erasing a user needs: the store, the user's turn order (a turn in flight finishes first), the log. */
  readonly app: Pick<AppDeps, 'store' | 'turns' | 'logger' | 'clock'>;
  /** The preview users this process runs now: never swept here, however long their author pauses. */
  readonly running: () => ReadonlySet<string>;
}

/**
 * Erases preview users last changed before `before` (epoch ms), except those this process runs:
 * their transcript, state and anything else stored about them, as the author's own stop does.
 * Preview users are in no export, insight or count meanwhile (ports/preview.ts); this keeps
 * their rows from growing forever. Answers how many were erased.
 */
export async function sweepPreviewUsers(deps: PreviewSweepDeps, before: number): Promise<number> {
  let erased = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const running = deps.running();
    // The running ones stay listed: asking for that many more keeps them from filling the page.
    const rows = await deps.previews.listPreviewUsers({ updatedBefore: before, limit: PAGE + running.size });
    const left = rows.filter((row) => !running.has(row.userId));
    // The erasure goes without the events and usage counters of a live user: a preview has neither.
    for (const row of left) await eraseUser(deps.app, row.userId);
    erased += left.length;
    if (rows.length < PAGE + running.size || left.length === 0) break;
  }
  return erased;
}

/** The hourly sweep of preview users left idle past PREVIEW_IDLE_MS; it puts itself back for the next hour. */
export function previewSweepJobHandler(deps: PreviewSweepDeps): JobHandler {
  return async () => {
    const now = deps.app.clock.now();
    const erased = await sweepPreviewUsers(deps, now - PREVIEW_IDLE_MS);
    if (erased > 0)
      deps.app.logger.info(
        { event: 'preview_users_swept', erased, idleHours: PREVIEW_IDLE_MS / 3_600_000 },
        'studio preview users left behind were erased',
      );
    return { deferUntil: now + PREVIEW_SWEEP_EVERY_MS };
  };
}

/** At start-up: the sweep job exists and runs now (a pending one is moved to now, a running one is left to its node). */
export async function schedulePreviewSweep(scheduler: Pick<Scheduler, 'schedule'>, now: number): Promise<void> {
  await scheduler.schedule({ id: PREVIEW_SWEEP_JOB, kind: PREVIEW_SWEEP_JOB, payload: {}, runAt: now, maxAttempts: 5 });
}
