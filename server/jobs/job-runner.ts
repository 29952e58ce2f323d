import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import { JobGivenUp, type Scheduler } from '../ports/scheduler.ts';
import type { Job, NewJob, Store } from '../ports/store.ts';
import { LoopSlice } from './loop-slice.ts';

/**
 * What a handler may ask for instead of finishing: the job is not ready to run
 * (it waits for another), so it is put back as pending until `deferUntil`
 * without using up an attempt.
 */
export interface JobDeferral {
  readonly deferUntil: number;
}

/**
 * What a handler returns when its own commit already finished the job (a channel turn's commit,
 * TurnCommit.completeJobs): the runner writes nothing more for it.
 */
export interface JobCompleted {
  readonly completed: true;
}

/**
 * Does the work of one job. Returning nothing finishes it; returning a deferral
 * puts it back for later; throwing fails the attempt and the runner retries with
 * backoff, unless it throws JobGivenUp (ports/scheduler.ts): then the job is dead at once.
 */
export type JobHandler = (job: Job) => Promise<void | JobDeferral | JobCompleted>;

export interface JobRunnerOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How often due jobs are looked for when nothing pokes the runner (ms). */
  readonly pollMs?: number;
  /** How long a claimed job belongs to this worker before another may take it over (ms). */
  readonly leaseMs?: number;
  /** Most jobs claimed per poll. Default 50. */
  readonly batchSize?: number;
  /** Most jobs running at once; no more are claimed (and leased) until some finish. Default 100. */
  readonly maxInFlight?: number;
  /** Delay before retry number `attempt` (1 = the first retry), in ms. */
  readonly backoffMs?: (attempt: number) => number;
  /** Counts job attempts by kind and outcome for /metrics. */
  readonly metrics?: Pick<Metrics, 'jobAttempt'>;
  /**
   * Most time job work may take of one turn of the event loop before the jobs still waiting to start
   * yield to the requests that arrived (ms). Default 4.
   */
  readonly sliceMs?: number;
  /** The same while a request jobs give way to (giveWay: a webhook) is under way (ms). Default 1. */
  readonly urgentSliceMs?: number;
}

/** Exponential backoff: 1 s, 2 s, 4 s … capped at 5 minutes, with ±20 % jitter so retries of a burst spread out. */
export function exponentialBackoff(attempt: number): number {
  const base = Math.min(1000 * 2 ** Math.max(0, attempt - 1), 5 * 60_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Runs durable jobs (timers, triggers, retried calls) from the store. Jobs are
 * claimed with a lease, so after a crash another worker (or this one after a
 * restart) takes them over once the lease runs out: a job is never lost, and
 * handlers must tolerate running twice.
 */
export class JobRunner implements Scheduler {
  readonly workerId = `worker-${randomUUID()}`;
  private readonly handlers = new Map<string, JobHandler>();
  /** Kinds whose handler copies the payload itself (register's copiesPayload). */
  private readonly copiedByHandler = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private again = false;
  /** The last poll found every slot taken; the next job to finish pokes. */
  private full = false;
  private running = false;
  /**
   * Due jobs may be waiting in the store that this runner has not claimed: while
   * so, no job is handed over directly, so none overtakes one accepted earlier.
   */
  private backlog = true;
  /** Due jobs written as pending so far, and how many of those writes are still under way. */
  private pendingWrites = 0;
  private pendingWriting = 0;
  /** Direct hand-overs between their slot check and their write. */
  private readonly handing = new Set<Promise<boolean>>();
  /**
   * Jobs leased to commits since the last turn of the event loop: each will take a slot as its commit
   * lands (a commit lands a turn later at the earliest), so a burst of webhooks leases no more than
   * there are slots.
   */
  private leasedLately = 0;
  private readonly slice: LoopSlice;

  constructor(private readonly options: JobRunnerOptions) {
    this.slice = new LoopSlice(options.sliceMs ?? 4, options.urgentSliceMs ?? 1);
  }

  /** Jobs not yet started take the urgent share of each turn of the event loop until `work` settles (Scheduler.giveWay). */
  giveWay(work: Promise<unknown>): void {
    this.slice.giveWay(work);
  }

  /**
   * `options.copiesPayload`: the handler reads its job's payload only through a schema of its own, which copies
   * it; a job of this kind started straight from this node's write (no store read) is then handed its payload
   * as written, without the copy every other job gets (it was a tenth of a channel send's runner cost).
   */
  register(kind: string, handler: JobHandler, options: { readonly copiesPayload?: boolean } = {}): this {
    this.handlers.set(kind, handler);
    if (options.copiesPayload) this.copiedByHandler.add(kind);
    else this.copiedByHandler.delete(kind);
    return this;
  }

  /**
   * Stores the job. A due job this runner can start at once is written already
   * claimed and started without a claim: under a burst of triggers the claim
   * (a query and an update per job) was a tenth of the server's time. The job
   * is as durable either way; its lease lets another worker take it over.
   */
  async schedule(job: NewJob): Promise<void> {
    const { store, clock } = this.options;
    const now = clock.now();
    if (job.runAt > now) {
      await store.scheduleJob(job);
      return;
    }
    if (this.canTakeDirectly(job)) {
      const leaseUntil = now + (this.options.leaseMs ?? 30_000);
      const lease = { owner: this.workerId, until: leaseUntil };
      const writing = store.scheduleJob({ ...job, lease });
      this.handing.add(writing);
      let taken: boolean;
      try {
        taken = await writing;
      } finally {
        this.handing.delete(writing);
      }
      // Not taken: a running job with this id was kept, as any schedule keeps it.
      if (taken) this.launch(this.leasedJob(job, leaseUntil));
      return;
    }
    this.backlog = true;
    this.pendingWrites += 1;
    this.pendingWriting += 1;
    try {
      await store.scheduleJob(job);
    } finally {
      this.pendingWriting -= 1;
    }
    this.poke();
  }

  private canTakeDirectly(job: NewJob): boolean {
    return (
      this.running &&
      !this.backlog &&
      this.handlers.has(job.kind) &&
      this.inFlight.size + this.handing.size + this.leasedLately < (this.options.maxInFlight ?? 100)
    );
  }

  /**
   * Leases a due job to this runner when it could take it directly now: the commit that stores it
   * stores it running, and `committed` starts it, so a turn's hand-off waits for no claim.
   */
  leaseOnCommit(job: NewJob): NewJob {
    const now = this.options.clock.now();
    if (job.runAt > now || job.lease || !this.canTakeDirectly(job)) return job;
    if (this.leasedLately++ === 0) setImmediate(() => (this.leasedLately = 0));
    return { ...job, lease: { owner: this.workerId, until: now + (this.options.leaseMs ?? 30_000) } };
  }

  committed(jobs: readonly NewJob[]): void {
    const now = this.options.clock.now();
    let due = false;
    for (const job of jobs) {
      if (job.lease?.owner === this.workerId) this.startLeased(job);
      else if (job.runAt <= now) due = true;
    }
    if (!due) return;
    // Pending in the store now: no direct hand-over may overtake them until a claim has seen them.
    this.backlog = true;
    this.pendingWrites += 1;
    this.poke();
  }

  /** A job a commit stored under this runner's lease (leaseOnCommit): started, or, once stopping, put back for any worker. */
  private startLeased(job: NewJob): void {
    if (this.running) {
      this.launch(this.leasedJob(job, job.lease!.until));
      return;
    }
    void this.options.store.deferJob(job.id, this.workerId, job.runAt).catch((error: unknown) => {
      this.options.logger.error(
        { jobId: job.id, err: error },
        'could not put back a job leased to a stopping runner; another worker takes it when the lease ends',
      );
    });
  }

  /** A job this runner wrote leased to itself, as it starts it. */
  private leasedJob(job: NewJob, leaseUntil: number): Job {
    return leasedJob(job, this.workerId, leaseUntil, !this.copiedByHandler.has(job.kind));
  }

  cancel(id: string): Promise<boolean> {
    return this.options.store.cancelJob(id);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wakeIn(0);
  }

  /** Looks for due jobs now, e.g. right after scheduling one that is due at once. */
  poke(): void {
    if (!this.running) return;
    if (this.polling) this.again = true;
    else this.wakeIn(0);
  }

  /** Stops claiming and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.polling;
    // Jobs handed over directly may still be starting: wait for those too.
    while (this.inFlight.size > 0 || this.handing.size > 0)
      await Promise.allSettled([...this.inFlight, ...this.handing]);
  }

  private wakeIn(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        if (!this.running) return;
        const next = this.again ? 0 : (this.options.pollMs ?? 250);
        this.again = false;
        this.wakeIn(next);
      });
    }, delay);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    const { store, clock, logger } = this.options;
    // Only as many as may run now: a claimed job's lease runs while it waits, and a
    // backlog started all at once would hog the event loop the HTTP side shares.
    const free = (this.options.maxInFlight ?? 100) - this.inFlight.size;
    if (free <= 0) {
      this.full = true;
      return;
    }
    const limit = Math.min(this.options.batchSize ?? 50, free);
    // The claim sees every pending job only if none was being written as it began (a write
    // under way may land after the claim's query) and none was started while it ran.
    const writesBefore = this.pendingWriting === 0 ? this.pendingWrites : -1;
    let jobs: Job[];
    try {
      jobs = await store.claimJobs({
        workerId: this.workerId,
        now: clock.now(),
        leaseMs: this.options.leaseMs ?? 30_000,
        limit,
        kinds: [...this.handlers.keys()],
      });
    } catch (error) {
      logger.error({ err: error }, 'could not claim jobs; will try again');
      return;
    }
    if (jobs.length === limit) {
      this.again = true;
      this.backlog = true;
    } else if (this.pendingWrites === writesBefore) {
      this.backlog = false;
    }
    for (const job of jobs) this.launch(job);
  }

  private launch(job: Job): void {
    const work = this.execute(job);
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      // A slot is free again: claim more at once rather than at the next poll.
      if (this.full) {
        this.full = false;
        this.poke();
      }
    });
  }

  private async execute(job: Job): Promise<void> {
    const { store, clock, logger } = this.options;
    const handler = this.handlers.get(job.kind);
    logger.debug?.(
      {
        event: 'job_started',
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
        of: job.maxAttempts,
        lateMs: Math.max(0, clock.now() - job.runAt),
      },
      'job claimed',
    );
    try {
      if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
      // Let waiting requests in between jobs: a claimed batch would otherwise run back to back, and a
      // turn of the loop that has had its share of job work lets the requests that arrived go first.
      await this.slice.next();
      const outcome = await handler(job);
      if (outcome && 'deferUntil' in outcome) await store.deferJob(job.id, this.workerId, outcome.deferUntil);
      else if (!outcome) await store.completeJob(job.id, this.workerId);
      this.options.metrics?.jobAttempt?.(job.kind, 'done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const givenUp = error instanceof JobGivenUp;
      const retryAt = givenUp ? null : clock.now() + (this.options.backoffMs ?? exponentialBackoff)(job.attempts);
      const last = givenUp || job.attempts >= job.maxAttempts;
      this.options.metrics?.jobAttempt?.(job.kind, last ? 'dead' : 'retry');
      const fields = { jobId: job.id, kind: job.kind, attempt: job.attempts, of: job.maxAttempts, error: message };
      if (givenUp) logger.error(fields, 'job given up without retrying: trying again cannot help');
      else logger.warn(fields, last ? 'job failed for good' : 'job failed; will retry');
      await store.failJob(job.id, this.workerId, message, retryAt).catch((failError: unknown) => {
        logger.error({ jobId: job.id, err: failError }, 'could not record a failed job attempt');
      });
    }
  }
}

/** A job stored already running its first attempt under `owner`'s lease, as the store would hand it back. */
function leasedJob(job: NewJob, owner: string, leaseUntil: number, copy: boolean): Job {
  return {
    id: job.id,
    kind: job.kind,
    // Plain data, not the caller's object (unless its handler copies it).
    payload: copy ? (JSON.parse(JSON.stringify(job.payload)) as Job['payload']) : job.payload,
    runAt: job.runAt,
    status: 'running',
    attempts: 1,
    maxAttempts: job.maxAttempts ?? 1,
    group: job.group ?? null,
    leaseOwner: owner,
    leaseUntil,
    lastError: null,
  };
}
