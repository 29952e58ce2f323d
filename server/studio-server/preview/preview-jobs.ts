import type { PreviewTimer } from '../../../shared/preview-protocol.ts';
import type { NewJob } from '../../ports/store.ts';

/** The job kinds a preview runs itself (the live bot's: jobs/handlers/timer.ts, integrations/run-integration.ts). */
const TIMER_KIND = 'timer';
const INTEGRATION_KIND = 'integration';

/** setTimeout's longest delay; a longer wait is armed again when this much has passed. */
const LONGEST_TIMEOUT_MS = 2_147_483_647;

/** A wait step keeps one timer per step; a preview with more running at once is a loop gone wrong. */
export const MAX_PREVIEW_TIMERS = 50;

/** What the jobs of one preview do when they run. */
export interface PreviewJobRunners {
  readonly now: () => number;
  /** A wait step's timer is due (or the author skipped the wait): `delayMs` is the wait the step asked for. */
  readonly timer: (timerId: string, delayMs: number) => Promise<void>;
  /** An asynchronous integration step's job, run in the background as the job runner would. */
  readonly integration: (job: NewJob) => Promise<void>;
  /** The timers changed: the panel shows them. */
  readonly changed: () => void;
}

interface Armed {
  readonly view: PreviewTimer;
  readonly delayMs: number;
  handle: NodeJS.Timeout;
}

/**
 * The durable jobs of one preview's turns, kept in memory instead of the job table: a preview
 * user's work must never run on another author's node nor outlive the preview (ports/preview.ts).
 * Wait timers run when due, or at once when the author skips the wait; an asynchronous
 * integration step's job runs at once in the background, its calls held for the author like a
 * synchronous step's. Everything stops when the preview ends.
 */
export class PreviewJobs {
  private readonly timers = new Map<string, Armed>();
  private closed = false;

  constructor(private readonly run: PreviewJobRunners) {}

  /** A turn of the preview committed with this outbox: cancels first, then schedules (as the stores do). */
  committed(jobs: readonly NewJob[], cancelJobs: readonly string[], at: number): void {
    if (this.closed) return;
    let changed = false;
    for (const id of cancelJobs) {
      const timerId = this.timerIdOf(id);
      if (timerId !== undefined && this.disarm(timerId)) changed = true;
    }
    for (const job of jobs) {
      if (job.kind === TIMER_KIND) changed = this.arm(job, at) || changed;
      else if (job.kind === INTEGRATION_KIND) void this.run.integration(job);
      // Channel callbacks and the like have no place in a preview: its only channel is the studio's chat.
    }
    if (changed) this.run.changed();
  }

  list(): PreviewTimer[] {
    return [...this.timers.values()].map((armed) => armed.view).sort((a, b) => a.dueAt - b.dueAt);
  }

  /** The author skips the wait: the timer runs now. False when no such timer is pending. */
  runNow(timerId: string): boolean {
    const armed = this.timers.get(timerId);
    if (!armed) return false;
    this.fire(timerId, armed);
    return true;
  }

  /** The preview ended: no timer runs any more. */
  close(): void {
    this.closed = true;
    for (const armed of this.timers.values()) clearTimeout(armed.handle);
    this.timers.clear();
  }

  /** The engine's timer id from the job's id (`timer:<user>:<timerId>`, app/turn-outbox.ts). */
  private timerIdOf(jobId: string): string | undefined {
    for (const [timerId] of this.timers) if (jobId.endsWith(`:${timerId}`)) return timerId;
    return undefined;
  }

  /** `at`: when the turn that set the timer ran, so the wait is the step's own ("1d", not 86 399 998 ms). */
  private arm(job: NewJob, at: number): boolean {
    const timerId = typeof job.payload.timerId === 'string' ? job.payload.timerId : undefined;
    if (timerId === undefined) return false;
    // Scheduling the same timer again replaces it, as for the live bot's job of the same id.
    this.disarm(timerId);
    if (this.timers.size >= MAX_PREVIEW_TIMERS) return false;
    const armed: Armed = {
      view: { id: timerId, dueAt: job.runAt },
      delayMs: Math.max(0, job.runAt - at),
      handle: this.schedule(timerId, job.runAt - this.run.now()),
    };
    this.timers.set(timerId, armed);
    return true;
  }

  private schedule(timerId: string, delayMs: number): NodeJS.Timeout {
    const handle = setTimeout(
      () => {
        const armed = this.timers.get(timerId);
        if (!armed) return;
        const left = armed.view.dueAt - this.run.now();
        if (left > 0) armed.handle = this.schedule(timerId, left);
        else this.fire(timerId, armed);
      },
      Math.min(Math.max(0, delayMs), LONGEST_TIMEOUT_MS),
    );
    // A pending preview wait never keeps the server from shutting down.
    handle.unref();
    return handle;
  }

  private disarm(timerId: string): boolean {
    const armed = this.timers.get(timerId);
    if (!armed) return false;
    clearTimeout(armed.handle);
    this.timers.delete(timerId);
    return true;
  }

  private fire(timerId: string, armed: Armed): void {
    clearTimeout(armed.handle);
    this.timers.delete(timerId);
    this.run.changed();
    void this.run.timer(timerId, armed.delayMs);
  }
}
