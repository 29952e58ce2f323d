import type { NewJob } from './store.ts';

/**
 * Thrown by a job handler when trying again cannot help (a destination the server will
 * never call, say): the job is dead at once instead of being retried with backoff.
 * The message says why, for the log and the job's lastError.
 */
export class JobGivenUp extends Error {
  override readonly name = 'JobGivenUp';
}

/** Durable work for later (timers, triggers, retried calls): stored first, so it survives a restart. */
export interface Scheduler {
  /** Stores the job (replacing a pending one with the same id) and wakes the runner when it is due now. */
  schedule(job: NewJob): Promise<void>;
  /** Cancels a job that has not finished; true when one was cancelled. */
  cancel(id: string): Promise<boolean>;
  /**
   * A turn's commit stored these jobs (its outbox, TurnCommit.jobs): the runner looks at
   * once for the ones due now, rather than at its next poll.
   */
  committed?(jobs: readonly NewJob[]): void;
  /**
   * A job due now that a turn's commit is about to store (a channel's hand-off): returned with this
   * scheduler's lease when it can run the job the moment the commit lands (`committed` then starts
   * it, with no claim), else as it was. A lease whose commit never lands leaves nothing behind.
   */
  leaseOnCommit?(job: NewJob): NewJob;
  /**
   * A request that must be answered quickly (a vendor's webhook, acknowledged once stored) is under way
   * until `work` settles: jobs not yet started take a smaller share of each turn of the event loop meanwhile.
   */
  giveWay?(work: Promise<unknown>): void;
}
