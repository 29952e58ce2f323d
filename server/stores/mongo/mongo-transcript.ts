import type { Db } from 'mongodb';
import type { NewTranscriptEntry, Store, TranscriptEntry } from '../../ports/store.ts';
import { COLLECTIONS } from './mongo-common.ts';
import { mongoTranscriptReads } from './mongo-transcript-reads.ts';
import { entryByClientId, toEntry, transcriptDoc, type TranscriptDoc } from './transcript-doc.ts';
import { userLockKey } from './user-doc.ts';
import { insertEntries, rememberClientIds, type RecentClientId, type SettleHolder } from './unsent-entries.ts';
import type { UserWrites } from './user-writes.ts';

type TranscriptOps = Pick<Store, 'appendTranscript' | 'storePending' | 'readTranscript' | 'readReturning'>;

/*
 * Appends hold the user's lock (see key-lock.ts): the lock, not the unique
 * indexes, keeps seq gapless and clientIds single. As in a turn
 * (mongo-turns.ts), the user document's write is the commit point: it holds
 * lastSeq and the new entries as `unsent` (and, for storePending, the pending
 * mark and a new version), and the inserts follow. The next seq comes from the highest stored
 * entry as well as lastSeq, so an append cut short costs no seq twice.
 */
export function mongoTranscript(db: Db, writes: UserWrites): TranscriptOps {
  return { ...mongoTranscriptAppends(db, writes), ...mongoTranscriptReads(db, writes) };
}

function mongoTranscriptAppends(
  db: Db,
  { locks, outboxes, settled, cache }: UserWrites,
): Pick<Store, 'appendTranscript' | 'storePending'> {
  const transcript = db.collection<TranscriptDoc>(COLLECTIONS.transcript);
  const users = db.collection<{ pendingSeq?: number | null; recent?: RecentClientId[] } & SettleHolder>(
    COLLECTIONS.users,
  );

  const append = async (userId: string, entries: readonly NewTranscriptEntry[], pending = false) => {
    const user = await users.findOne(
      { _id: userId },
      { projection: { lastSeq: 1, unsent: 1, version: 1, outbox: 1, recent: 1 } },
    );
    if (user === null) throw new Error(`cannot append to the transcript of unknown user ${userId}`);
    let seq = Math.max(user.lastSeq, await settled.settle(user, outboxes, transcript));
    const fresh: TranscriptDoc[] = [];
    const freshByClientId = new Map<string, TranscriptDoc>();
    const results: Array<TranscriptEntry & { readonly duplicate: boolean }> = [];
    for (const entry of entries) {
      const clientId = entry.clientId ?? null;
      if (clientId !== null) {
        const existing = freshByClientId.get(clientId) ?? (await entryByClientId(transcript, userId, clientId));
        if (existing !== null) {
          results.push({ ...toEntry(existing), duplicate: true });
          continue;
        }
      }
      seq += 1;
      const doc = transcriptDoc(userId, seq, entry);
      fresh.push(doc);
      if (clientId !== null) freshByClientId.set(clientId, doc);
      results.push({ ...toEntry(doc), duplicate: false });
    }
    if (fresh.length > 0) {
      const recent = user.recent === undefined ? undefined : rememberClientIds(user.recent, fresh);
      // The pending mark moves the version (a copy of the user read before knows neither the message nor the
      // mark, and its commit must conflict); a plain append keeps it, as the commit checks lastSeq too.
      const version = pending ? user.version + 1 : user.version;
      await users.updateOne(
        { _id: userId },
        {
          $set: {
            lastSeq: seq,
            unsent: fresh,
            ...(recent ? { recent } : {}),
            ...(pending ? { pendingSeq: seq, version } : {}),
          },
        },
      );
      if (pending) cache?.forget(userId);
      await insertEntries(transcript, fresh);
      settled.remember(userId, version, seq);
    }
    return results;
  };

  return {
    async appendTranscript(userId, entries) {
      return locks.withLock(userLockKey(userId), () => append(userId, entries));
    },

    async storePending(userId, entry) {
      const [stored] = await locks.withLock(userLockKey(userId), () => append(userId, [entry], true));
      if (stored === undefined) throw new Error(`no transcript entry stored for user ${userId}`);
      return stored;
    },
  };
}
