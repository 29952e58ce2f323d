import type { Collection } from 'mongodb';
import { isDuplicateKey } from './mongo-common.ts';
import type { TranscriptDoc } from './mongo-transcript.ts';

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
export async function restoreUnsent(transcript: Collection<TranscriptDoc>, user: UnsentHolder, top: number): Promise<number> {
  if (top >= user.lastSeq) return top;
  const missing = (user.unsent ?? []).filter((doc) => doc.seq > top);
  await insertEntries(transcript, missing);
  return Math.max(top, ...missing.map((doc) => doc.seq));
}

/**
 * Inserts transcript entries; one already there (stored by a concurrent
 * repair, with the same content) is not an error.
 */
export async function insertEntries(transcript: Collection<TranscriptDoc>, docs: readonly TranscriptDoc[]): Promise<void> {
  if (docs.length === 0) return;
  try {
    // Copies: insertMany adds _id to the documents it is given.
    await transcript.insertMany(docs.map((doc) => ({ ...doc })), { ordered: true });
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
