import type { Db } from 'mongodb';
import type { NewTranscriptEntry, Store, TranscriptEntry } from '../../ports/store.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS } from './mongo-common.ts';
import { toEntry, transcriptDoc, type TranscriptDoc } from './transcript-doc.ts';
import { toUser, userLockKey, type UserDoc } from './user-doc.ts';
import type { Outboxes } from './turn-outbox.ts';
import {
  insertEntries,
  rememberClientIds,
  restoreUnsent,
  topSeq,
  type RecentClientId,
  type SettleHolder,
  type SettledTurns,
} from './unsent-entries.ts';
import type { UserDocCache } from './user-doc-cache.ts';

type TranscriptOps = Pick<Store, 'appendTranscript' | 'storePending' | 'readTranscript' | 'readReturning'>;

/*
 * Appends hold the user's lock (see key-lock.ts): the lock, not the unique
 * indexes, keeps seq gapless and clientIds single. As in a turn
 * (mongo-turns.ts), the user document's write is the commit point: it holds
 * lastSeq and the new entries as `unsent` (and, for storePending, the pending
 * mark and a new version), and the inserts follow. The next seq comes from the highest stored
 * entry as well as lastSeq, so an append cut short costs no seq twice.
 */
export function mongoTranscript(
  db: Db,
  locks: KeyLocks,
  outboxes: Outboxes,
  settled: SettledTurns,
  cache?: UserDocCache,
): TranscriptOps {
  const transcript = db.collection<TranscriptDoc>(COLLECTIONS.transcript);
  const fullUsers = db.collection<UserDoc>(COLLECTIONS.users);
  const users = db.collection<{ pendingSeq?: number | null; recent?: RecentClientId[] } & SettleHolder>(
    COLLECTIONS.users,
  );

  const byClientId = (userId: string, clientId: string) =>
    transcript.findOne({ userId, dedupKey: `c:${clientId}` }, { projection: { _id: 0 } });

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
        const existing = freshByClientId.get(clientId) ?? (await byClientId(userId, clientId));
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

  // The entry at afterSeq too (one document more, no round trip more): a widget that is up to date
  // gets nothing, and that entry is what shows the stored entries still reach lastSeq.
  const readFromLast = (userId: string, afterSeq: number, limit: number) =>
    transcript
      .find({ userId, seq: { $gte: Math.max(afterSeq, 1) } }, { projection: { _id: 0 } })
      .sort({ seq: 1 })
      .limit(limit + 1)
      .toArray();

  /**
   * The entries after afterSeq, with what a crash kept from the transcript stored first (`user` as just read;
   * `fromLast`, readFromLast's answer, when the caller read it beside the user).
   */
  const readAfter = async (
    userId: string,
    afterSeq: number,
    limit: number,
    user: (SettleHolder & { outboxAt?: number | null }) | null,
    fromLast?: Awaited<ReturnType<typeof readFromLast>>,
  ) => {
    const read = () =>
      transcript
        .find({ userId, seq: { $gt: afterSeq } }, { projection: { _id: 0 } })
        .sort({ seq: 1 })
        .limit(limit)
        .toArray();
    const withLast = fromLast ?? (await readFromLast(userId, afterSeq, limit));
    const docs = withLast.filter((doc) => doc.seq > afterSeq).slice(0, limit);
    if (user === null) return docs.map(toEntry);
    if (docs.length >= Math.min(limit, user.lastSeq - afterSeq)) {
      // The stored entries reach lastSeq and no outbox waits: nothing of the user's last turn is left to store,
      // so the user's next turn here skips that check (a reconnect replays, then resends: the first turn after a restart).
      const top = withLast.at(-1)?.seq ?? 0;
      if (top >= user.lastSeq && user.outboxAt == null) settled.remember(userId, user.version, top);
      return docs.map(toEntry);
    }
    // Fewer entries than lastSeq promises: answers a crash kept from the transcript (unsent-entries.ts), stored now.
    await restoreUnsent(transcript, user, await topSeq(transcript, userId));
    return (await read()).map(toEntry);
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

    async readTranscript(userId, afterSeq, limit) {
      if (limit <= 0) return [];
      // Both at once (on FerretDB each is a scan of its collection). Read in either order they stay right: entries
      // newer than the user document read are more than lastSeq asks for; a turn committed between the two
      // reads leaves fewer entries than lastSeq promises, which readAfter's repair stores (as the turn does;
      // a duplicate is no error) before reading again.
      const [user, fromLast] = await Promise.all([
        users.findOne({ _id: userId }, { projection: { lastSeq: 1, unsent: 1, version: 1, outboxAt: 1 } }),
        readFromLast(userId, afterSeq, limit),
      ]);
      return readAfter(userId, afterSeq, limit, user, fromLast);
    },

    async readReturning(userId, afterSeq, limit) {
      // The whole document, read once: the replay's check below and the caller's user. Kept in the
      // cache, so the commit of the turn that usually follows (the widget's resend) reads it no more.
      // The entries are read beside it, as in readTranscript (either order stays right): after a restart
      // every widget comes back at once, and two reads in turn held each one round trip longer.
      const [doc, fromLast] = await Promise.all([
        fullUsers.findOne({ _id: userId }),
        limit <= 0 ? [] : readFromLast(userId, afterSeq, limit),
      ]);
      if (doc === null) {
        cache?.forget(userId);
        return { user: null, missed: limit <= 0 ? [] : await readAfter(userId, afterSeq, limit, null, fromLast) };
      }
      cache?.put(doc);
      return { user: toUser(doc), missed: limit <= 0 ? [] : await readAfter(userId, afterSeq, limit, doc, fromLast) };
    },
  };
}
