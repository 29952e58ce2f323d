/**
 * Shares each turn of the event loop between job work and the requests waiting for it. Jobs enter
 * through `next()`, each in a callback of its own in the loop's check phase (setImmediate); once the
 * job work of this turn has taken `budgetMs`, the jobs still waiting go to the next turn, so the
 * poll phase between takes in the requests that arrived meanwhile (a webhook's acknowledgement waits
 * for one slice, not for every job that happened to be queued). The time counted is the check
 * phase's from the first job that entered: the jobs' work up to their first real wait, and whatever
 * else runs there between them (the store's group commits).
 */
export class LoopSlice {
  /** When this turn's slice began (performance.now()), or -1 before any job entered in it. */
  private began = -1;
  /** Requests under way that jobs give way to (giveWay). */
  private urgent = 0;

  constructor(
    private readonly budgetMs: number,
    /** The slice while a request jobs give way to is under way: small, but never none, so the queue still drains. */
    private readonly urgentBudgetMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** While `work` is under way, each turn's slice is the urgent one. */
  giveWay(work: Promise<unknown>): void {
    this.urgent += 1;
    const done = () => {
      this.urgent -= 1;
    };
    void work.then(done, done);
  }

  /** Resolves in a later turn's check phase, when that turn's slice has room. */
  next(): Promise<void> {
    return new Promise((resolve) => setImmediate(() => this.enter(resolve)));
  }

  private enter(resolve: () => void): void {
    const now = this.now();
    if (this.began < 0) {
      this.began = now;
      // Queued before any job put off below: the next turn's check phase runs it first, opening a fresh slice.
      setImmediate(() => (this.began = -1));
    } else if (now - this.began >= (this.urgent > 0 ? this.urgentBudgetMs : this.budgetMs)) {
      setImmediate(() => this.enter(resolve));
      return;
    }
    resolve();
  }
}
