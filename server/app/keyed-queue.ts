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

  /** Keys with work queued or running; for tests and metrics. */
  get size(): number {
    return this.tails.size;
  }
}
