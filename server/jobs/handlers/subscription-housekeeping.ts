import type { Clock } from '../../ports/clock.ts';
import type { SubscriptionStore } from '../../ports/event-subscriptions.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Store } from '../../ports/store.ts';
import type { JobHandler } from '../job-runner.ts';
import { FINISHED_JOBS_AGAIN_MS, purgeFinishedJobs } from './finished-jobs.ts';
import { deliveryJob, deliveryJobId } from './subscription-delivery.ts';

/** The job kind, and the one id it runs under: one per store, whichever node holds it. */
export const SUBSCRIPTION_HOUSEKEEPING_JOB = 'subscription_housekeeping';
const EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Once an hour: removes events older than the replay window (SUBSCRIPTION_EVENT_DAYS), and
 * starts the delivery job of any active subscription that has none (it ended on store failures):
 * a subscriber is never left waiting for a wake that was lost. Being an hourly job every server
 * runs, whatever its settings, it also removes old finished jobs (finished-jobs.ts).
 */
export function subscriptionHousekeepingHandler(deps: {
  store: Store;
  subscriptions: SubscriptionStore;
  clock: Clock;
  logger: Logger;
  eventDays: number;
}): JobHandler {
  return async () => {
    const now = deps.clock.now();
    const purged = await deps.subscriptions.purgeEventsBefore(now - deps.eventDays * DAY_MS);
    let restarted = 0;
    for (const subscription of await deps.subscriptions.listSubscriptions()) {
      if (subscription.status !== 'active') continue;
      const job = await deps.store.getJob(deliveryJobId(subscription.id));
      if (job && (job.status === 'pending' || job.status === 'running')) continue;
      await deps.store.scheduleJob(deliveryJob(subscription.id, now));
      restarted += 1;
    }
    const finished = await purgeFinishedJobs(deps.store, now);
    const finishedJobs = finished.removed;
    if (purged > 0 || restarted > 0 || finishedJobs > 0)
      deps.logger.info(
        { event: 'subscription_housekeeping', purged, restarted, finishedJobs },
        'old subscription events and finished jobs removed, idle deliveries restarted',
      );
    return { deferUntil: now + (finished.more ? FINISHED_JOBS_AGAIN_MS : EVERY_MS) };
  };
}

/** At start-up: makes sure the housekeeping job exists (a pending one is moved to now, a running one left to its node). */
export async function scheduleSubscriptionHousekeeping(
  schedule: (job: {
    id: string;
    kind: string;
    payload: Record<string, unknown>;
    runAt: number;
    maxAttempts: number;
  }) => Promise<void>,
  now: number,
): Promise<void> {
  await schedule({
    id: SUBSCRIPTION_HOUSEKEEPING_JOB,
    kind: SUBSCRIPTION_HOUSEKEEPING_JOB,
    payload: {},
    runAt: now,
    maxAttempts: 5,
  });
}
