import type { Store } from '../../ports/store.ts';

/** The jobs as their schedulers see them: put in, looked at, stopped. */
export type JobSchedule = Pick<Store, 'scheduleJob' | 'getJob' | 'cancelJob' | 'firstUnfinishedJob'>;
/** The jobs as workers see them: claimed under a lease, then given back, completed or failed. */
export type JobClaims = Pick<Store, 'claimJobs' | 'deferJob' | 'completeJob' | 'failJob'>;
