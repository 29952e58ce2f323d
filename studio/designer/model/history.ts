/**
 * Undo and redo over whole definitions. Each entry is a snapshot (edits share what they do
 * not touch, so a snapshot costs what the edit changed). Typing into one field makes one
 * entry, not one per key: an edit with the same `coalesce` key as the last one, within
 * `coalesceMs`, replaces it. Saving does not touch the history, so undo reaches past a save.
 */
export interface HistoryEntry<T> {
  readonly state: T;
  /** What the edit did, for the undo button's name and the announcement ("Undo: delete step ask"). */
  readonly label: string;
  readonly coalesce?: string;
  readonly at: number;
}

/** The whole history, oldest first: what undo can reach, where it stands, and what redo can reach (next last). */
export interface HistoryEntries<T> {
  readonly past: readonly HistoryEntry<T>[];
  readonly current: HistoryEntry<T>;
  readonly future: readonly HistoryEntry<T>[];
}

export class History<T> {
  /** A history taken back from its entries (kept across a reload); typing after it starts a new step. */
  static restore<T>(entries: HistoryEntries<T>, limit?: number, coalesceMs?: number): History<T> {
    const history = new History(entries.current.state, limit, coalesceMs);
    history.past = entries.past.slice(-history.limit);
    history.future = [...entries.future];
    history.current = { ...entries.current, coalesce: undefined } as HistoryEntry<T>;
    return history;
  }

  private past: HistoryEntry<T>[] = [];
  private future: HistoryEntry<T>[] = [];
  private current: HistoryEntry<T>;

  constructor(
    initial: T,
    private readonly limit = 500,
    private readonly coalesceMs = 1500,
  ) {
    this.current = { state: initial, label: '', at: 0 };
  }

  get state(): T {
    return this.current.state;
  }

  /** The label of the edit undo would take back, if any. */
  get undoLabel(): string | undefined {
    return this.past.length > 0 ? this.current.label : undefined;
  }

  get redoLabel(): string | undefined {
    return this.future[this.future.length - 1]?.label;
  }

  /** Records the state after an edit. A state identical to the current one records nothing. */
  push(state: T, label: string, options: { coalesce?: string; at?: number } = {}): void {
    if (state === this.current.state) return;
    const at = options.at ?? Date.now();
    const entry: HistoryEntry<T> = {
      state,
      label,
      at,
      ...(options.coalesce === undefined ? {} : { coalesce: options.coalesce }),
    };
    this.future = [];
    const merge =
      options.coalesce !== undefined &&
      this.past.length > 0 &&
      this.current.coalesce === options.coalesce &&
      at - this.current.at <= this.coalesceMs;
    if (!merge) {
      this.past.push(this.current);
      if (this.past.length > this.limit) this.past.shift();
    }
    this.current = entry;
  }

  /** Ends coalescing: the next edit of the same field makes an entry of its own (a field lost focus). */
  seal(): void {
    this.current = { ...this.current, coalesce: undefined } as HistoryEntry<T>;
  }

  /** Steps back; returns the label of what was undone, or undefined when there is nothing. */
  undo(): string | undefined {
    const previous = this.past.pop();
    if (!previous) return undefined;
    const undone = this.current;
    this.future.push(undone);
    this.current = { ...previous, coalesce: undefined } as HistoryEntry<T>;
    return undone.label;
  }

  redo(): string | undefined {
    const next = this.future.pop();
    if (!next) return undefined;
    this.past.push(this.current);
    this.current = { ...next, coalesce: undefined } as HistoryEntry<T>;
    return next.label;
  }

  /** Replaces the current state without an entry (a state from elsewhere, e.g. a merge's result that is itself an edit, uses push). */
  reset(state: T): void {
    this.past = [];
    this.future = [];
    this.current = { state, label: '', at: 0 };
  }

  entries(): HistoryEntries<T> {
    return { past: [...this.past], current: this.current, future: [...this.future] };
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }
}
