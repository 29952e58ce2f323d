import type { Database } from 'better-sqlite3';

/**
 * Group commit: writes asked for in the same turn of the event loop run in
 * one SQLite write transaction, each in its own savepoint, and every caller's
 * promise settles only after that transaction committed, so a resolved write
 * is as durable as one committed alone. A commit (and its WAL frames) is most
 * of what a small write costs; under load one commit now carries hundreds.
 * A write that throws rolls back its own savepoint and rejects its own caller
 * only.
 */
export function groupCommit<A, R>(db: Database, write: (arg: A) => R, maxBatch = 1000): (arg: A) => Promise<R> {
  interface Pending {
    readonly arg: A;
    readonly resolve: (value: R) => void;
    readonly reject: (error: unknown) => void;
  }
  let queue: Pending[] = [];
  const one = db.transaction(write);
  const all = db.transaction((batch: readonly Pending[]) =>
    batch.map((item): { ok: true; value: R } | { ok: false; error: unknown } => {
      try {
        return { ok: true, value: one(item.arg) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );

  const flush = () => {
    const batch = queue.splice(0, maxBatch);
    if (queue.length > 0) setImmediate(flush);
    else queue = [];
    let outcomes: ReturnType<typeof all>;
    try {
      outcomes = all.immediate(batch);
    } catch (error) {
      // The commit itself failed (disk full, locked by another process past the busy timeout).
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  };

  return (arg) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ arg, resolve, reject });
      if (queue.length === 1) setImmediate(flush);
    });
}
