/**
 * An asynchronous job that runs one at a time: asked while it runs, it runs once more after it, however
 * many times it was asked meanwhile. The job reads the newest state when it starts, so that one more run
 * answers every ask in between, and two runs never race (their answers could otherwise arrive in either
 * order, the older one last).
 */
export class OneAtATime {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly job: () => Promise<void>) {}

  /** Runs the job now, or once more after the run under way; settles when no run is left to do. */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.job();
        } while (this.again && !this.stopped);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** No run starts after this one (the owner is gone). */
  stop(): void {
    this.stopped = true;
  }
}
