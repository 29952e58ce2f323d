import type { Collection } from 'mongodb';
import { isDuplicateKey } from './mongo-common.ts';
import type { TranscriptDoc } from './transcript-doc.ts';
import type { OutboxDoc } from './turn-outbox.ts';

/*
 * Without transactions, a turn's new state and its bot messages are two writes.
 * The state goes first (readers must not see answers before the state that led
 * to them), and it carries the turn's bot entries as `unsent` together with the
 * lastSeq that includes them: one document, one atomic write. If the process
 * dies before the entries reach the transcript, they are not lost: whoever next
 * touches the user's transcript (a turn, an append, a read) finds lastSeq ahead
 * of the highest stored entry and stores them from `unsent`, with the seqs they
 * were given. Without this, a state that says "done" (a trigger's mark
 * included) would stand with its messages missing.
 */

/** What of the user document the repair needs. */
export interface UnsentHolder {
  readonly lastSeq: number;
  /** The bot entries of the user's last turn, as written to the transcript (absent on older documents). */
  readonly unsent?: readonly TranscriptDoc[];
}

/** The highest seq stored in the user's transcript, 0 when none. */
export async function topSeq(transcript: Collection<TranscriptDoc>, userId: string): Promise<number> {
  const top = await transcript.findOne({ userId }, { sort: { seq: -1 }, projection: { seq: 1 } });
  return top?.seq ?? 0;
}

/**
 * Stores the entries of `user.unsent` that a crash kept from the transcript.
 * Returns the highest stored seq afterwards.
 */
export async function restoreUnsent(
  transcript: Collection<TranscriptDoc>,
  user: UnsentHolder,
  top: number,
): Promise<number> {
  if (top >= user.lastSeq) return top;
  const missing = (user.unsent ?? []).filter((doc) => doc.seq > top);
  await insertEntries(transcript, missing);
  return Math.max(top, ...missing.map((doc) => doc.seq));
}

/**
 * Inserts transcript entries; one already there (stored by a concurrent
 * repair, with the same content) is not an error.
 */
export async function insertEntries(
  transcript: Collection<TranscriptDoc>,
  docs: readonly TranscriptDoc[],
): Promise<void> {
  if (docs.length === 0) return;
  try {
    // Copies: insertMany adds _id to the documents it is given.
    await transcript.insertMany(
      docs.map((doc) => ({ ...doc })),
      { ordered: true },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    for (const doc of docs) {
      try {
        await transcript.insertOne({ ...doc });
      } catch (each) {
        if (!isDuplicateKey(each)) throw each;
      }
    }
  }
}

/** A clientId of one of the user's latest messages, with its seq. */
export interface RecentClientId {
  readonly c: string;
  readonly s: number;
}

/**
 * How many of a user's latest clientIds the user document keeps. A widget resends
 * only what it saw no ack for: messages in flight when its connection dropped, a
 * handful at most, and it resends them first thing after the reconnect. So a resend
 * is among the latest few messages, and the turn tells it from a new one by the
 * user document it reads anyway, without a read of the transcript.
 */
export const RECENT_CLIENT_IDS = 32;

/** `recent` after storing `docs`. */
export function rememberClientIds(
  recent: readonly RecentClientId[] | undefined,
  docs: readonly TranscriptDoc[],
): RecentClientId[] {
  const added = docs.flatMap((doc) => (doc.clientId === null ? [] : [{ c: doc.clientId, s: doc.seq }]));
  if (added.length === 0 && recent !== undefined) return [...recent];
  return [...(recent ?? []), ...added].slice(-RECENT_CLIENT_IDS);
}

/** What of the user document settling needs. */
export interface SettleHolder extends UnsentHolder {
  readonly _id: string;
  readonly version: number;
  readonly outbox?: OutboxDoc | null;
  readonly outboxAt?: number | null;
}

/**
 * Which users' last turn this process stored whole (entries inserted, outbox moved), or
 * saw stored whole (a replay that reached lastSeq, no outbox), by version: the next turn of such a user needs no check for what a crash left (a
 * read of the highest stored seq and of the outbox), since nobody wrote the user
 * since. Bounded: the oldest are forgotten first, which only costs that read again.
 */
export class SettledTurns {
  private readonly byUser = new Map<string, { version: number; top: number }>();
  constructor(private readonly limit = 50_000) {}

  remember(userId: string, version: number, top: number): void {
    this.byUser.delete(userId);
    this.byUser.set(userId, { version, top });
    if (this.byUser.size > this.limit) this.byUser.delete(this.byUser.keys().next().value as string);
  }

  forget(userId: string): void {
    this.byUser.delete(userId);
  }

  /**
   * Stores what a crash left of the user's last turn (its entries, its outbox) unless
   * this process settled that very version; returns the highest stored seq. The caller
   * holds the user's lock.
   */
  async settle(
    user: SettleHolder,
    outboxes: { flush(user: SettleHolder): Promise<void> },
    transcript?: Collection<TranscriptDoc>,
  ): Promise<number> {
    const known = this.byUser.get(user._id);
    // lastSeq beyond what was seen stored: an append (which keeps the version) wrote since, and may have been cut short.
    if (known !== undefined && known.version === user.version && known.top >= user.lastSeq && !user.outbox)
      return known.top;
    if (!transcript) throw new Error('settle needs the transcript collection');
    const top = await restoreUnsent(transcript, user, await topSeq(transcript, user._id));
    if (user.outbox) await outboxes.flush(user);
    return top;
  }
}
