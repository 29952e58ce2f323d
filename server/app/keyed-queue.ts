/** Runs each user's turns one at a time (deps.turns): in this process, or across processes too (turn-lease.ts). */
export interface TurnQueue {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Resolves once the key has nothing queued or running in this process. */
  idle(key: string): Promise<void>;
  /** How many users have a turn queued or running in this process (a graceful stop waits for 0). */
  readonly size: number;
}

/**
 * Runs tasks one at a time per key, in the order they were queued, while
 * tasks of different keys run concurrently. One user's inputs must never
 * interleave: the second message would read state the first has not saved.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /**
   * Resolves once the key has nothing queued or running, including tasks queued
   * meanwhile (a turn's sync integration step queues the call as the user's next task).
   */
  async idle(key: string): Promise<void> {
    for (let tail = this.tails.get(key); tail; tail = this.tails.get(key)) await tail;
  }

  /** Keys with work queued or running; for tests and metrics. */
  get size(): number {
    return this.tails.size;
  }
}
