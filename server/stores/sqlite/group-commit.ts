import type { Database, Transaction } from './database.ts';

/** Most writes one commit carries; the rest go in the next turn's commit. */
const MAX_BATCH = 1000;

interface Pending {
  /** The write (inside its own savepoint unless it is a single statement) and its argument; throws to reject. */
  readonly write: (arg: never) => unknown;
  /** The same write without a savepoint of its own: for a commit that carries it alone. */
  readonly bare: (arg: never) => unknown;
  readonly arg: unknown;
  readonly resolve: (value: never) => void;
  readonly reject: (error: unknown) => void;
}

interface Batcher {
  queue: Pending[];
  readonly commit: Transaction<
    (batch: readonly Pending[]) => ({ ok: true; value: unknown } | { ok: false; error: unknown })[]
  >;
  /**
   * A commit carrying one write: the transaction is its savepoint (a throw rolls it all back,
   * which is that write alone), two statements fewer. Under light load most commits are one turn.
   */
  readonly commitOne: Transaction<(item: Pending) => unknown>;
}

/** One batch per database: every group-committed write of a turn (jobs, users, turns) shares one commit. */
const batchers = new WeakMap<Database, Batcher>();

function batcherFor(db: Database): Batcher {
  let batcher = batchers.get(db);
  if (batcher === undefined) {
    const commit = db.transaction((batch: readonly Pending[]) =>
      batch.map((item): { ok: true; value: unknown } | { ok: false; error: unknown } => {
        try {
          return { ok: true, value: item.write(item.arg as never) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
    const commitOne = db.transaction((item: Pending) => item.bare(item.arg as never));
    batcher = { queue: [], commit, commitOne };
    batchers.set(db, batcher);
  }
  return batcher;
}

function flush(batcher: Batcher): void {
  const batch = batcher.queue.splice(0, MAX_BATCH);
  if (batcher.queue.length > 0) setImmediate(flush, batcher);
  else batcher.queue = [];
  if (batch.length === 1) {
    const item = batch[0]!;
    let value: unknown;
    try {
      value = batcher.commitOne.immediate(item);
    } catch (error) {
      // The write threw (rolled back with the transaction) or the commit failed: either way, only this caller's.
      item.reject(error);
      return;
    }
    item.resolve(value as never);
    return;
  }
  let outcomes: ReturnType<Batcher['commit']>;
  try {
    outcomes = batcher.commit.immediate(batch);
  } catch (error) {
    // The commit itself failed (disk full, locked by another process past the busy timeout).
    for (const item of batch) item.reject(error);
    return;
  }
  batch.forEach((item, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) item.resolve(outcome.value as never);
    else item.reject(outcome.error);
  });
}

export interface GroupCommitOptions {
  /**
   * The write is one SQL statement: SQLite already undoes a failed statement's
   * changes on its own, so it needs no savepoint of its own (two statements
   * fewer per write).
   */
  readonly singleStatement?: boolean;
}

/**
 * Group commit: writes asked for in the same turn of the event loop run in
 * one SQLite write transaction, each in its own savepoint, and every caller's
 * promise settles only after that transaction committed, so a resolved write
 * is as durable as one committed alone. A commit (and its WAL frames) is most
 * of what a small write costs; under load one commit now carries hundreds.
 * All group-committed writes to one database share the batch, in the order
 * they were asked for. A write that throws rolls back its own savepoint (or,
 * for a single statement, its statement) and rejects its own caller only.
 */
export function groupCommit<A, R>(
  db: Database,
  write: (arg: A) => R,
  options: GroupCommitOptions = {},
): (arg: A) => Promise<R> {
  const batcher = batcherFor(db);
  const one = options.singleStatement ? write : db.transaction(write);
  return (arg) =>
    new Promise<R>((resolve, reject) => {
      batcher.queue.push({ write: one, bare: write, arg, resolve: resolve as (value: never) => void, reject });
      if (batcher.queue.length === 1) setImmediate(flush, batcher);
    });
}
