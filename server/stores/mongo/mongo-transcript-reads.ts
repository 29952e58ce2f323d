import type { Db } from 'mongodb';
import type { Store } from '../../ports/store.ts';
import { COLLECTIONS } from './mongo-common.ts';
import { toEntry, type TranscriptDoc } from './transcript-doc.ts';
import { toUser, type UserDoc } from './user-doc.ts';
import { restoreUnsent, topSeq, type SettleHolder } from './unsent-entries.ts';
import type { UserWrites } from './user-writes.ts';

type TranscriptReads = Pick<Store, 'readTranscript' | 'readReturning'>;

/*
 * A read of the transcript checks that the stored entries reach the user's lastSeq: when a crash
 * kept a turn's entries from the transcript, they wait in the user document (unsent-entries.ts)
 * and the read stores them before it answers.
 */
export function mongoTranscriptReads(db: Db, { settled, cache }: UserWrites): TranscriptReads {
  const transcript = db.collection<TranscriptDoc>(COLLECTIONS.transcript);
  const fullUsers = db.collection<UserDoc>(COLLECTIONS.users);
  const users = db.collection<SettleHolder & { outboxAt?: number | null }>(COLLECTIONS.users);

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
