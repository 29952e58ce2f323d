import type { Database } from './database.ts';
import type { NewTranscriptEntry, TranscriptEntry, TurnCommit } from '../../ports/store.ts';
import { originOf } from '../common/transcript-origin.ts';
import { toJson } from './json.ts';
import { CANCEL_JOB_SQL, COMPLETE_JOB_SQL, SCHEDULE_JOB_SQL, scheduleParams } from './job-table.ts';

/**
 * The rows a turn adds beside its user's new state, in the turn's savepoint (sqlite-turns.ts): its
 * transcript entries numbered after `lastSeq`, its user data snapshots, and its outbox (jobs
 * cancelled and scheduled, log rows), stored exactly when the turn is, and the job that ran it finished.
 */
export function sqliteTurnRows(db: Database): (
  commit: TurnCommit,
  lastSeq: number,
) => {
  entries: TranscriptEntry[];
  seq: number;
} {
  const insertEntry = db.prepare<[string, number, string, string | null, number, string, string | null, string | null]>(
    'INSERT INTO transcript (user_id, seq, sender, client_id, at, message, dialog_id, step_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertLog = db.prepare<[string, string, number, string]>(
    'INSERT INTO logs (kind, user_id, timestamp, data) VALUES (?, ?, ?, ?)',
  );
  const scheduleJob = db.prepare(SCHEDULE_JOB_SQL);
  const cancelJob = db.prepare(CANCEL_JOB_SQL);
  const completeJob = db.prepare(COMPLETE_JOB_SQL);

  return (commit, lastSeq) => {
    const { userId } = commit;
    let seq = lastSeq;
    const entries: TranscriptEntry[] = [];
    const append = (entry: NewTranscriptEntry) => {
      seq += 1;
      const clientId = entry.clientId ?? null;
      const origin = originOf(entry);
      insertEntry.run(
        userId,
        seq,
        entry.from,
        clientId,
        entry.at,
        toJson(entry.message),
        origin?.dialogId ?? null,
        origin?.stepId ?? null,
      );
      entries.push({ userId, seq, from: entry.from, clientId, at: entry.at, message: entry.message, ...origin });
    };
    if (commit.userEntry) append(commit.userEntry);
    for (const snapshot of commit.snapshots ?? []) {
      insertLog.run('userDataSnapshot', snapshot.userId, snapshot.timestamp, toJson(snapshot.data));
    }
    for (const entry of commit.botEntries) append(entry);
    for (const id of commit.cancelJobs ?? []) cancelJob.run(id);
    for (const job of commit.jobs ?? []) scheduleJob.run(...scheduleParams(job));
    for (const job of commit.completeJobs ?? []) completeJob.run(job.id, job.workerId);
    for (const { kind, entry } of commit.logs ?? [])
      insertLog.run(kind, entry.userId, entry.timestamp, toJson(entry.data));
    return { entries, seq };
  };
}
