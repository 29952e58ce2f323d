import type { Database } from './database.ts';
import { emptyLogCounts, jobPayloadUser, type PersonalDataStore } from '../../ports/personal-data.ts';
import { LOG_KINDS } from '../../ports/store.ts';
import type { PersonalDataExports, PersonalDataRemoval } from '../common/personal-data-parts.ts';
import { fromJson } from './json.ts';
import { sqliteExports } from './sqlite-exports.ts';

/** Rows removed per write transaction by retention: other writers wait at most one batch. */
const PURGE_BATCH = 5000;

const nextTurn = () => new Promise((done) => setImmediate(done));

/** What the store keeps of people: erased on request, purged by retention, exported (sqlite-exports.ts) with its users. */
export function sqlitePersonalData(db: Database): PersonalDataStore & PersonalDataExports {
  return { ...sqliteRemoval(db), ...sqliteExports(db) };
}

/** A user's erasure and retention's purge, in write transactions. */
function sqliteRemoval(db: Database): PersonalDataRemoval {
  const deleteUser = db.prepare('DELETE FROM users WHERE user_id = ?');
  const deleteTranscript = db.prepare('DELETE FROM transcript WHERE user_id = ?');
  const deleteLogs = db.prepare('DELETE FROM logs WHERE user_id = ? AND kind = ?');
  // Job payloads are opaque JSON: a textual pre-filter on the id, then the payload is read to be sure.
  const candidateJobs = db.prepare<[string], { id: string; payload: string }>(
    'SELECT id, payload FROM jobs WHERE instr(payload, ?) > 0',
  );
  const deleteJob = db.prepare('DELETE FROM jobs WHERE id = ?');

  const eraseTx = db.transaction((userId: string) => {
    const logs = emptyLogCounts(LOG_KINDS);
    for (const kind of LOG_KINDS) logs[kind] = deleteLogs.run(userId, kind).changes;
    let jobs = 0;
    for (const job of candidateJobs.all(JSON.stringify(userId))) {
      if (jobPayloadUser(fromJson(job.payload)) === userId) jobs += deleteJob.run(job.id).changes;
    }
    const transcript = deleteTranscript.run(userId).changes;
    const user = deleteUser.run(userId).changes;
    return { user, transcript, logs, jobs };
  });

  const purgeTranscript = db.prepare(
    `DELETE FROM transcript WHERE (user_id, seq) IN (SELECT user_id, seq FROM transcript WHERE at < ? ORDER BY at LIMIT ${PURGE_BATCH})`,
  );
  const purgeLogs = db.prepare(
    `DELETE FROM logs WHERE id IN (SELECT id FROM logs WHERE kind = ? AND timestamp < ? ORDER BY timestamp LIMIT ${PURGE_BATCH})`,
  );

  /** Deletes batch after batch, yielding between them so turns are written in the meantime. */
  const drain = async (run: () => number): Promise<number> => {
    let total = 0;
    for (;;) {
      const removed = db.transaction(run).immediate();
      total += removed;
      if (removed < PURGE_BATCH) return total;
      await nextTurn();
    }
  };

  return {
    async eraseUser(userId) {
      return eraseTx.immediate(userId);
    },

    async purgeOlderThan(cutoffs) {
      const transcriptBefore = cutoffs.transcriptBefore;
      const transcript =
        transcriptBefore === undefined ? 0 : await drain(() => purgeTranscript.run(transcriptBefore).changes);
      const logs = emptyLogCounts(LOG_KINDS);
      for (const kind of LOG_KINDS) {
        const before = cutoffs.logsBefore?.[kind];
        if (before !== undefined) logs[kind] = await drain(() => purgeLogs.run(kind, before).changes);
      }
      return { transcript, logs };
    },
  };
}
