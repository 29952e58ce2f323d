import { History, type HistoryEntries, type HistoryEntry } from '../model/history.ts';
import { readShared, writeShared, type SharedTrees } from '../model/shared-trees.ts';

/**
 * The undo history kept in the tab's session storage, so that it survives a save and a reload of the page:
 * one editing session's (the tab's storage, one key per account, gone with the tab). It is taken back only
 * onto the draft revision it was kept with, and only if that draft still reads the same: a draft changed by
 * another tab or person starts a new history, since undoing would then take back their work.
 */
export type HistoryStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const KEY = 'chatbot.designer.history.';
const FORMAT = 2;

interface Kept {
  readonly format: typeof FORMAT;
  readonly revision: number;
  /** How many of the entries come before the current one, which is next. */
  readonly past: number;
  readonly labels: ReadonlyArray<{ readonly label: string; readonly at: number }>;
  readonly trees: SharedTrees;
}

/** The tab's session storage, or none where the page may not use it (a sandboxed frame, storage turned off). */
export function sessionHistoryStorage(): HistoryStorage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the history's entries as of a saved draft revision (taken when it was saved: they may be written
 * later, when the page is idle). When the storage is full the oldest steps go first, half at a time; if
 * even the current state does not fit, nothing is kept (undo then starts anew after a reload).
 */
export function keepHistory<T>(
  storage: HistoryStorage,
  accountId: string,
  revision: number,
  { past, current, future }: HistoryEntries<T>,
): void {
  for (let steps = past.length; ; steps = Math.floor(steps / 2)) {
    const entries = [...past.slice(past.length - steps), current, ...future];
    const labels: Kept['labels'] = entries.map(({ label, at }) => ({ label, at }));
    // A Kept as JSON text: the trees are written as text already (most of it kept from the last time).
    const kept = `{"format":${FORMAT},"revision":${revision},"past":${steps},"labels":${JSON.stringify(labels)},"trees":${writeShared(entries.map((entry) => entry.state))}}`;
    try {
      storage.setItem(KEY + accountId, kept);
      return;
    } catch {
      // Over the storage's quota: fewer of the oldest steps, or at last nothing.
      if (steps === 0) {
        storage.removeItem(KEY + accountId);
        return;
      }
    }
  }
}

/**
 * The kept history, if it was kept at this revision and its current state reads as the draft does
 * (`same` compares by content); otherwise undefined, and what was kept is dropped.
 */
export function keptHistory<T>(
  storage: HistoryStorage,
  accountId: string,
  revision: number,
  draft: T,
  same: (a: T, b: T) => boolean,
  options: { limit?: number; coalesceMs?: number } = {},
): History<T> | undefined {
  try {
    const text = storage.getItem(KEY + accountId);
    if (text === null) return undefined;
    const kept = JSON.parse(text) as Kept;
    if (kept.format !== FORMAT || kept.revision !== revision) throw new Error('kept for another draft');
    const states = readShared(kept.trees) as T[];
    const entries = kept.labels.map((entry, i): HistoryEntry<T> => ({ ...entry, state: states[i]! }));
    const current = entries[kept.past];
    if (!current || !same(current.state, draft)) throw new Error('the draft changed since');
    return History.restore(
      { past: entries.slice(0, kept.past), current, future: entries.slice(kept.past + 1) },
      options.limit,
      options.coalesceMs,
    );
  } catch {
    storage.removeItem(KEY + accountId);
    return undefined;
  }
}
