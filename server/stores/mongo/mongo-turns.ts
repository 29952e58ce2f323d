import { ObjectId, type Db } from 'mongodb';
import type { NewTranscriptEntry, Store, TranscriptEntry, TurnCommit } from '../../ports/store.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS, toJson } from './mongo-common.ts';
import { lockKey as jobLockKey, newJobDoc, type JobDoc } from './mongo-jobs.ts';
import type { LogDoc } from './mongo-logs.ts';
import { toEntry, type TranscriptDoc } from './mongo-transcript.ts';
import { toUser, userLockKey, type UserDoc } from './mongo-users.ts';
import { insertEntries, restoreUnsent, topSeq } from './unsent-entries.ts';

type TurnOps = Pick<Store, 'commitTurn'>;

/*
 * No transactions here (FerretDB 1.x has none): the turn is written under the
 * user's lock in the order the separate calls used to write it: user entry,
 * snapshots, state, bot entries. Readers see the state before the answers it
 * led to. The state's write also holds the bot entries (unsent-entries.ts), so
 * a crash after it loses no answer: they are stored by the next one to look.
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
    const userClientId = turn.userEntry?.clientId ?? null;
    if (userClientId !== null) {
      const existing = await transcript.findOne({ userId, dedupKey: `c:${userClientId}` }, { projection: { _id: 0 } });
      if (existing !== null) return { status: 'duplicate' as const, entry: toEntry(existing) };
    }
    if (current.version !== turn.expectedVersion) return { status: 'conflict' as const };

    // As in mongo-transcript.ts: an append cut short by a crash costs no seq twice.
    const top = await restoreUnsent(transcript, current, await topSeq(transcript, userId));
    let seq = Math.max(current.lastSeq, top);
    const docOf = (entry: NewTranscriptEntry): TranscriptDoc => {
      seq += 1;
      const clientId = entry.clientId ?? null;
      return { userId, seq, from: entry.from, clientId, dedupKey: clientId === null ? `s:${seq}` : `c:${clientId}`, at: entry.at, message: toJson(entry.message) };
    };
    const userDocs = turn.userEntry ? [docOf(turn.userEntry)] : [];
    const botDocs = turn.botEntries.map(docOf);
    // Copies: insertMany adds _id to the documents it is given.
    if (userDocs.length > 0) await transcript.insertMany(userDocs.map((doc) => ({ ...doc })), { ordered: true });
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
    const set: Partial<UserDoc> = { updatedAt: now, lastSeq: seq, unsent: botDocs, version: current.version + 1 };
    if (patch.position !== undefined) set.position = patch.position;
    if (patch.variables !== undefined) set.variables = toJson(patch.variables);
    if (patch.userData !== undefined) set.userData = toJson(patch.userData);
    if (patch.lastMessageAt !== undefined) set.lastMessageAt = patch.lastMessageAt;
    // The trigger's mark goes with the state it led to: one document, one write.
    if (patch.lastTrigger !== undefined) set.lastTrigger = patch.lastTrigger;
    await users.updateOne({ _id: userId }, { $set: set });
    await insertEntries(transcript, botDocs);
    const entries: TranscriptEntry[] = [...userDocs, ...botDocs].map(toEntry);
    return { status: 'committed' as const, user: toUser({ ...current, ...set }), entries };
  };

  return {
    async commitTurn(turn) {
      return locks.withLock(userLockKey(turn.userId), () => commit(turn));
    },
  };
}
