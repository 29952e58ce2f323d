import { ObjectId, type Collection, type Db } from 'mongodb';
import type { TurnCommit } from '../../ports/store.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS, isDuplicateKey, toJson } from './mongo-common.ts';
import { lockKey as jobLockKey, newJobDoc, writeJob, type JobDoc } from './job-doc.ts';
import type { LogDoc } from './mongo-logs.ts';

/*
 * The turn's outbox on a store without transactions (FerretDB 1.x has none; the adapter
 * does not use MongoDB's either). The commit point of a turn is ONE write, the user
 * document's (mongo-turns.ts), and the outbox rides in it: the jobs the turn schedules,
 * the jobs it cancels, its log rows, all as they will be stored. Right after that write,
 * still under the user's lock, they are moved to the jobs and logs collections and the
 * outbox is cleared (flushOutbox). A process killed in between leaves the outbox in the
 * user document, and it is moved by whoever comes next: the user's next turn or
 * transcript write, or, for a user nobody touches, the sweep that runs with the job
 * runner's claims (sweepOutboxes). So an outbox item is stored if and only if its turn
 * is, which writing them after the commit could not promise (a SIGKILL in between lost
 * the timer), and writing them before could not either (a turn that then failed left
 * its log rows and calls behind).
 *
 * Moving is idempotent: log rows carry the _id they were given at the commit (a second
 * insert finds it taken and is skipped), a job is scheduled as scheduleJob would (a
 * pending copy is replaced by the same job, a running one kept) and a cancel is a
 * cancel. The one thing a move cut short can do twice is reschedule a job that already
 * finished between the move and the clear; the jobs a turn schedules tolerate that
 * (a timer checks the user still waits on it, a callback checks its turn).
 */

export interface OutboxDoc {
  /** Jobs to cancel first, then jobs to schedule, then log rows to insert. */
  cancels: string[];
  jobs: JobDoc[];
  logs: LogDoc[];
}

/** What of the user document the outbox needs. */
export interface OutboxHolder {
  readonly _id: string;
  readonly version: number;
  /** The last turn's outbox while it is not yet moved, else absent or null. */
  readonly outbox?: OutboxDoc | null;
  /** When that outbox was written, for the sweep; absent or null when there is none. */
  readonly outboxAt?: number | null;
  readonly outboxHeld?: boolean;
}

/** The outbox of a commit, as stored in the user document; null when the turn has none. */
export function outboxOf(turn: TurnCommit): OutboxDoc | null {
  const logs: LogDoc[] = [
    ...(turn.snapshots ?? []).map((s) => logDoc('userDataSnapshot', s)),
    ...(turn.logs ?? []).map(({ kind, entry }) => logDoc(kind, entry)),
  ];
  const jobs = (turn.jobs ?? []).map(newJobDoc);
  const cancels = [...(turn.cancelJobs ?? [])];
  return logs.length + jobs.length + cancels.length === 0 ? null : { cancels, jobs, logs };
}

function logDoc(
  kind: LogDoc['kind'],
  entry: { userId: string; timestamp: number; data: Readonly<Record<string, unknown>> },
): LogDoc {
  // The _id is made now, in commit order: it is the log's insertion order and makes a second move a no-op.
  return { _id: new ObjectId(), kind, userId: entry.userId, timestamp: entry.timestamp, data: toJson(entry.data) };
}

export interface Outboxes {
  /** Moves the user's outbox into jobs and logs and clears it. The caller holds the user's lock. */
  flush(user: OutboxHolder): Promise<void>;
  /** Moves the outboxes left by a crash at least `graceMs` ago (at most every `everyMs`). */
  sweep(now: number): Promise<void>;
}

export function mongoOutboxes(
  db: Db,
  locks: KeyLocks,
  userLockKey: (userId: string) => string,
  options = { graceMs: 3000, everyMs: 2000 },
): Outboxes {
  const users = db.collection<OutboxHolder & { _id: string }>(COLLECTIONS.users);
  const jobs = db.collection<JobDoc>(COLLECTIONS.jobs);
  const logs = db.collection<LogDoc>(COLLECTIONS.logs);
  let lastSweep = 0;

  const move = async (outbox: OutboxDoc) => {
    for (const id of outbox.cancels) {
      await locks.withLock(jobLockKey(id), () =>
        jobs.updateOne(
          { _id: id, status: { $in: ['pending', 'running'] } },
          { $set: { status: 'cancelled', leaseOwner: null, leaseUntil: null } },
        ),
      );
    }
    for (const job of outbox.jobs) await locks.withLock(jobLockKey(job._id), () => writeJob(jobs, job));
    await insertOnce(logs, outbox.logs);
  };

  const flush = async (user: OutboxHolder) => {
    if (!user.outbox) return;
    await move(user.outbox);
    // Only the outbox of this version: a later turn's write (impossible under the lock) would stand.
    await users.updateOne(
      { _id: user._id, version: user.version },
      { $set: { outbox: null, outboxAt: null, outboxHeld: false } },
    );
  };

  return {
    flush,
    async sweep(now) {
      if (now - lastSweep < options.everyMs) return;
      lastSweep = now;
      // By the flag first: MongoDB takes the by_outbox index for the range, FerretDB 1.x filters the flag in
      // PostgreSQL (a range alone would hand every user to Go, every sweep).
      const stale = await users
        .find({ outboxHeld: true, outboxAt: { $lte: now - options.graceMs } }, { projection: { _id: 1 } })
        .limit(100)
        .toArray();
      for (const { _id } of stale) {
        await locks.withLock(userLockKey(_id), async () => {
          const user = await users.findOne(
            { _id },
            { projection: { _id: 1, version: 1, outbox: 1, outboxAt: 1, outboxHeld: 1 } },
          );
          if (user?.outbox) await flush(user);
          // Marked by the upgrade while a turn moved it: nothing waits, so the mark goes.
          else if (user?.outboxHeld)
            await users.updateOne({ _id, version: user.version }, { $set: { outboxHeld: false } });
        });
      }
    },
  };
}

/** Inserts documents whose _id may already be stored (a move repeated after a crash): those are skipped. */
async function insertOnce(collection: Collection<LogDoc>, docs: readonly LogDoc[]): Promise<void> {
  if (docs.length === 0) return;
  try {
    await collection.insertMany(
      docs.map((doc) => ({ ...doc })),
      { ordered: false },
    );
  } catch (error) {
    const written = (error as { writeErrors?: unknown[] }).writeErrors;
    const only = Array.isArray(written)
      ? written.every((e) => (e as { code?: number }).code === 11000)
      : isDuplicateKey(error);
    if (!only) throw error;
  }
}
