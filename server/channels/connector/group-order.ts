import { JobGivenUp } from '../../ports/scheduler.ts';
import type { Job, Store } from '../../ports/store.ts';

/** Job ids this process has finished handling, remembered until the runner has marked them done. */
const MAX_FINISHED = 10_000;

/** What a handler returns to wait: put back, no attempt used. */
export type Deferral = { readonly deferUntil: number };

/**
 * Runs one user's jobs of a group (their turns, their sends) one after another, in id order. Within
 * this process a job waits for the one before it on a promise, not a poll; a job handled elsewhere
 * (another node, a run before a restart) and not finished holds the later ones back through the
 * store (Store.firstUnfinishedJob), which is the guarantee. The same read tells whether the job's
 * own row is still there: a job whose row went (its user erased on any node, the job cancelled or
 * finished elsewhere) does nothing.
 */
export class GroupOrder {
  private readonly tails = new Map<string, Promise<void>>();
  /** Handled here and finished (or given up), but perhaps not yet marked so by the job runner. */
  private readonly finished = new Set<string>();

  constructor(private readonly store: Pick<Store, 'firstUnfinishedJob'>) {}

  /** The work's result; undefined, without running it, when the job's row is gone. */
  async run<T>(group: string, job: Job, now: number, work: () => Promise<T>): Promise<T | Deferral | undefined> {
    const previous = this.tails.get(group) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(group, tail);
    try {
      await previous;
      let after = '';
      for (;;) {
        const earlier = await this.store.firstUnfinishedJob(group, after, job.id, true);
        if (!earlier) return undefined;
        if (earlier.id === job.id) break;
        if (this.finished.has(earlier.id)) {
          after = earlier.id;
          continue;
        }
        const retryAt = earlier.status === 'pending' ? earlier.runAt : (earlier.leaseUntil ?? now + 1000);
        return { deferUntil: Math.max(now + 50, Math.min(retryAt, now + 1000)) };
      }
      try {
        const result = await work();
        // A job that asked to wait is not finished: the ones after it keep waiting.
        if (!(typeof result === 'object' && result !== null && 'deferUntil' in result)) this.done(job.id);
        return result;
      } catch (error) {
        if (error instanceof JobGivenUp) this.done(job.id);
        throw error;
      }
    } finally {
      release();
      if (this.tails.get(group) === tail) this.tails.delete(group);
    }
  }

  private done(id: string): void {
    if (this.finished.size >= MAX_FINISHED) this.finished.clear();
    this.finished.add(id);
  }
}
