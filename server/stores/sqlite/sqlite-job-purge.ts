import type { Database } from './database.ts';
import type { Store } from '../../ports/store.ts';

/** Rows looked at per write transaction: each delete holds the write lock for a few milliseconds at most. */
const PURGE_CHUNK = 2000;
const nextTurn = () => new Promise((done) => setImmediate(done));

/**
 * Finished jobs removed in slices of the table's rowid order. No index leads to them: finishing a
 * job moves no index entry (the due and group indexes hold unfinished jobs only), and a channel turn
 * stays a few µs cheaper for it. So the purge walks the table once, PURGE_CHUNK rows per transaction,
 * with a turn of the event loop between slices: a bounded delete, never one holding the lock long.
 */
export function sqliteJobPurge(db: Database): Pick<Store, 'purgeFinishedJobs'> {
  // Where the slice after `rowid` ends: PURGE_CHUNK rows on, through the rowid b-tree (no table scan).
  const sliceEnd = db.prepare<[number], { rowid: number }>(
    `SELECT rowid FROM jobs WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ${PURGE_CHUNK - 1}`,
  );
  const top = db.prepare<[], { top: number | null }>('SELECT max(rowid) AS top FROM jobs');
  const purge = db.prepare<[number, number, number]>(
    `DELETE FROM jobs WHERE rowid > ? AND rowid <= ? AND status IN ('done', 'dead', 'cancelled') AND run_at < ?`,
  );
  const slice = db.transaction((from: number, to: number, before: number) => purge.run(from, to, before).changes);
  return {
    async purgeFinishedJobs(before, limit) {
      // Rows inserted once the walk has started wait for the next run.
      const last = top.get()?.top ?? 0;
      let removed = 0;
      for (let from = 0; from < last && removed < limit;) {
        const to = Math.min(sliceEnd.get(from)?.rowid ?? last, last);
        removed += slice.immediate(from, to, before);
        from = to;
        await nextTurn();
      }
      return removed;
    },
  };
}
