/**
 * Amounts counted per user and UTC day, for budgets a step type keeps (the tokens a user
 * spent on a language model today). A port of its own beside the Store: both adapters
 * implement it, `stores/contract/usage-cases.ts` pins the behaviour.
 */
export interface UsageKey {
  /** Whose counter: a step type's name and the counter's own name, e.g. `chatCompletion:tokens`. */
  readonly counter: string;
  readonly userId: string;
  /** The UTC day, `YYYY-MM-DD`. */
  readonly day: string;
}

export interface UsageCounters {
  /**
   * Adds `amount` (a whole number, 0 or more) to the day's counter and returns its new total.
   * The same user's counters of other days are dropped in passing: a budget looks at today only,
   * so at most one row per user and counter is ever kept.
   */
  addUsage(key: UsageKey, amount: number): Promise<number>;
  /** The day's total; 0 when nothing was counted. */
  readUsage(key: UsageKey): Promise<number>;
  /** Erasure: removes every counter of the user; returns how many rows went. */
  eraseUsage(userId: string): Promise<number>;
}

/** `YYYY-MM-DD` of an epoch-ms time, in UTC: budgets reset at midnight UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
