import type { Db } from 'mongodb';
import type { NewTranscriptEntry, Store, TranscriptEntry, TurnCommit, TurnCommitResult } from '../../ports/store.ts';
import { released, updateJob, type JobDoc } from './job-doc.ts';
import { COLLECTIONS, toJson } from './mongo-common.ts';
import { entryByClientId, toEntry, transcriptDoc, type TranscriptDoc } from './transcript-doc.ts';
import { toUser, userLockKey, type UserDoc } from './user-doc.ts';
import { outboxOf } from './turn-outbox.ts';
import { insertEntries, rememberClientIds } from './unsent-entries.ts';
import type { UserWrites } from './user-writes.ts';

type TurnOps = Pick<Store, 'commitTurn'>;

/*
 * No transactions here (FerretDB 1.x has none): the turn is written under the
 * user's lock, and its commit point is ONE write, the user document's: the new
 * state, lastSeq, every transcript entry of the turn (the user's message
 * included) as `unsent` (unsent-entries.ts), the clientIds of the user's latest
 * messages (`recent`, for deduplication), and the turn's outbox (turn-outbox.ts:
 * snapshots, log rows, jobs to schedule and cancel). The entries are inserted
 * into the transcript and the outbox moved right after; a crash before that
 * loses nothing (whoever next touches the user stores them, and a sweep moves an
 * outbox nobody touches), and a crash before the user document's write leaves
 * no trace of the turn, so the widget's resend runs it afresh.
 *
 * What a turn of a known user costs, in round trips (bench/turn-cpu.ts counts them
 * with the driver's command monitoring): one read of the user (the turn's getUser;
 * the commit reuses that document, user-doc-cache.ts), one conditional write (the
 * commit), one insert of the transcript entries, and, only when the turn has an
 * outbox, its moves and one write that clears it. The checks that a crash
 * calls for (the highest stored seq, a left outbox) are skipped when this process
 * itself settled the user's last turn (`settled`); the clientId check reads the
 * transcript only for a user document older than `recent`.
 *
 * MongoDB features used: updateOne with a version filter (the compare-and-set
 * is atomic on MongoDB by itself; on FerretDB it is the lock that makes it so),
 * insertMany/insertOne with unique indexes on (userId, seq) and (userId, dedupKey).
 */
export function mongoTurns(db: Db, { locks, outboxes, settled, cache }: UserWrites): TurnOps {
  const users = db.collection<UserDoc>(COLLECTIONS.users);
  const transcript = db.collection<TranscriptDoc>(COLLECTIONS.transcript);
  const jobs = db.collection<JobDoc>(COLLECTIONS.jobs);

  const commit = async (turn: TurnCommit, cached = true): Promise<TurnCommitResult> => {
    const { userId, patch, now } = turn;
    // The document the turn was computed from, when this process just read it (user-doc-cache.ts).
    const known = cached ? cache?.at(userId, turn.expectedVersion) : undefined;
    const current = known ?? (await users.findOne({ _id: userId }));
    if (current === null) return { status: 'conflict' as const };
    // First what an earlier crash left unstored, so the clientId check below sees it.
    const top = await settled.settle(current, outboxes, transcript);
    const userClientId = turn.userEntry?.clientId ?? null;
    if (userClientId !== null) {
      const known = current.recent?.find((r) => r.c === userClientId);
      const existing =
        known !== undefined || current.recent === undefined
          ? await entryByClientId(transcript, userId, userClientId)
          : null;
      if (existing !== null) return { status: 'duplicate' as const, entry: toEntry(existing) };
    }
    if (current.version !== turn.expectedVersion) return { status: 'conflict' as const };

    // As in mongo-transcript.ts: an append cut short by a crash costs no seq twice.
    let seq = Math.max(current.lastSeq, top);
    const docOf = (entry: NewTranscriptEntry): TranscriptDoc => transcriptDoc(userId, (seq += 1), entry);
    const docs = [...(turn.userEntry ? [docOf(turn.userEntry)] : []), ...turn.botEntries.map(docOf)];
    const outbox = outboxOf(turn);
    const set: Partial<UserDoc> = {
      updatedAt: now,
      lastSeq: seq,
      unsent: docs,
      recent: rememberClientIds(current.recent, docs),
      version: current.version + 1,
      outbox,
      outboxAt: outbox === null ? null : now,
      outboxHeld: outbox !== null,
    };
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
    // lastSeq too: an append moves it without a new version, and `current` may be a cached copy.
    const written = await users.updateOne(
      { _id: userId, version: current.version, lastSeq: current.lastSeq },
      { $set: set },
    );
    if (written.matchedCount !== 1) {
      cache?.forget(userId);
      // A cached copy may only be behind an append (lastSeq moved, version not): look again before calling it a conflict.
      return known ? commit(turn, false) : { status: 'conflict' as const };
    }
    const stored = { ...current, ...set, outbox: null, outboxAt: null, outboxHeld: false } as UserDoc;
    await insertEntries(transcript, docs);
    await outboxes.flush({ ...current, ...set } as UserDoc);
    // No transaction to finish it in: right after the turn, as its runner would have (a crash between runs it again, a duplicate).
    for (const job of turn.completeJobs ?? [])
      await updateJob(
        locks,
        jobs,
        job.id,
        { status: 'running', leaseOwner: job.workerId },
        { status: 'done', ...released },
      );
    settled.remember(userId, stored.version, seq);
    cache?.put(stored);
    return { status: 'committed' as const, user: toUser(stored), entries: docs.map(toEntry) as TranscriptEntry[] };
  };

  return {
    async commitTurn(turn) {
      return locks.withLock(userLockKey(turn.userId), () => commit(turn));
    },
  };
}
