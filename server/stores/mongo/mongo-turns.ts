import { ObjectId, type Db } from 'mongodb';
import type { NewTranscriptEntry, Store, TranscriptEntry, TurnCommit } from '../../ports/store.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS, toJson } from './mongo-common.ts';
import { lockKey as jobLockKey, newJobDoc, type JobDoc } from './mongo-jobs.ts';
import type { LogDoc } from './mongo-logs.ts';
import { toEntry, transcriptDoc, type TranscriptDoc } from './mongo-transcript.ts';
import { toUser, userLockKey, type UserDoc } from './mongo-users.ts';
import { insertEntries, restoreUnsent, topSeq } from './unsent-entries.ts';

type TurnOps = Pick<Store, 'commitTurn'>;

/*
 * No transactions here (FerretDB 1.x has none): the turn is written under the
 * user's lock, and its commit point is ONE write, the user document's: the new
 * state, lastSeq, and every transcript entry of the turn (the user's message
 * included) as `unsent` (unsent-entries.ts). The entries are inserted into the
 * transcript right after; a crash before that loses nothing (whoever next
 * touches the user's transcript stores them), and a crash before the user
 * document's write leaves no trace of the message, so the widget's resend runs
 * the turn afresh instead of finding a stored message nobody answered.
 * Snapshots go first (they must exist before a state that may clear the data);
 * a crash right after them leaves a snapshot of a turn that did not happen,
 * which is harmless next to a missing one.
 *
 * Jobs the turn hands its outcome to (a channel's callback) are written just
 * before the user document: a crash in between leaves a job that finds no
 * turn and does nothing, never a committed turn without its job.
 *
 * MongoDB features used: updateOne with a version filter (the compare-and-set
 * is atomic on MongoDB by itself; on FerretDB it is the lock that makes it so),
 * insertMany/insertOne with unique indexes on (userId, seq) and (userId, dedupKey).
 */
export function mongoTurns(db: Db, locks: KeyLocks): TurnOps {
  const users = db.collection<UserDoc>(COLLECTIONS.users);
  const transcript = db.collection<TranscriptDoc>(COLLECTIONS.transcript);
  const logs = db.collection<LogDoc>(COLLECTIONS.logs);
  const jobs = db.collection<JobDoc>(COLLECTIONS.jobs);

  const commit = async (turn: TurnCommit) => {
    const { userId, patch, now } = turn;
    const current = await users.findOne({ _id: userId });
    if (current === null) return { status: 'conflict' as const };
    // First what an earlier crash left unsent, so the clientId check below sees it.
    const top = await restoreUnsent(transcript, current, await topSeq(transcript, userId));
    const userClientId = turn.userEntry?.clientId ?? null;
    if (userClientId !== null) {
      const existing = await transcript.findOne({ userId, dedupKey: `c:${userClientId}` }, { projection: { _id: 0 } });
      if (existing !== null) return { status: 'duplicate' as const, entry: toEntry(existing) };
    }
    if (current.version !== turn.expectedVersion) return { status: 'conflict' as const };

    // As in mongo-transcript.ts: an append cut short by a crash costs no seq twice.
    let seq = Math.max(current.lastSeq, top);
    const docOf = (entry: NewTranscriptEntry): TranscriptDoc => transcriptDoc(userId, (seq += 1), entry);
    const docs = [...(turn.userEntry ? [docOf(turn.userEntry)] : []), ...turn.botEntries.map(docOf)];
    const snapshots = turn.snapshots ?? [];
    if (snapshots.length > 0) {
      await logs.insertMany(
        snapshots.map((s) => ({ _id: new ObjectId(), kind: 'userDataSnapshot' as const, userId: s.userId, timestamp: s.timestamp, data: toJson(s.data) })),
        { ordered: true },
      );
    }
    // Before the state, as the store has no transactions: a crash in between leaves a job whose
    // turn is missing (the job then finds nothing to do), never a turn whose job is missing.
    for (const job of turn.jobs ?? []) {
      const doc = newJobDoc(job);
      await locks.withLock(jobLockKey(job.id), async () => {
        const stored = await jobs.findOne({ _id: job.id }, { projection: { status: 1 } });
        if (stored?.status !== 'running') await jobs.replaceOne({ _id: job.id }, doc, { upsert: true });
      });
    }
    const set: Partial<UserDoc> = { updatedAt: now, lastSeq: seq, unsent: docs, version: current.version + 1 };
    if (patch.position !== undefined) set.position = patch.position;
    if (patch.variables !== undefined) set.variables = toJson(patch.variables);
    if (patch.userData !== undefined) set.userData = toJson(patch.userData);
    if (patch.lastMessageAt !== undefined) {
      set.lastMessageAt = patch.lastMessageAt;
      set.listedAt = patch.lastMessageAt ?? current.createdAt;
    }
    // The trigger's mark goes with the state it led to: one document, one write.
    if (patch.lastTrigger !== undefined) set.lastTrigger = patch.lastTrigger;
    // So does the answer to a pending message: it cannot be run a third time.
    if (turn.answersPending !== undefined && current.pendingSeq === turn.answersPending) set.pendingSeq = null;
    const written = await users.updateOne({ _id: userId, version: current.version }, { $set: set });
    if (written.matchedCount !== 1) return { status: 'conflict' as const };
    await insertEntries(transcript, docs);
    return { status: 'committed' as const, user: toUser({ ...current, ...set }), entries: docs.map(toEntry) as TranscriptEntry[] };
  };

  return {
    async commitTurn(turn) {
      return locks.withLock(userLockKey(turn.userId), () => commit(turn));
    },
  };
}
