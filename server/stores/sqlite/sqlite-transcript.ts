import type { Database } from './database.ts';
import type { NewTranscriptEntry, Store, TranscriptEntry } from '../../ports/store.ts';
import { toJson } from './json.ts';
import { originOf } from '../common/transcript-origin.ts';
import { toEntry, type TranscriptRow } from './rows.ts';

type TranscriptOps = Pick<Store, 'appendTranscript' | 'storePending' | 'readTranscript'>;

export function sqliteTranscript(db: Database): TranscriptOps {
  const lastSeq = db.prepare<[string], { last_seq: number }>('SELECT last_seq FROM users WHERE user_id = ?');
  const byClientId = db.prepare<[string, string], TranscriptRow>(
    'SELECT * FROM transcript WHERE user_id = ? AND client_id = ?',
  );
  const insert = db.prepare(
    `INSERT INTO transcript (user_id, seq, sender, client_id, at, message, dialog_id, step_id)
     VALUES (@userId, @seq, @from, @clientId, @at, @message, @dialogId, @stepId)`,
  );
  const setLastSeq = db.prepare('UPDATE users SET last_seq = ? WHERE user_id = ?');
  const read = db.prepare<[string, number, number], TranscriptRow>(
    'SELECT * FROM transcript WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );

  // Allocation, dedup and insert in one write transaction keep seq gapless.
  const appendTx = db.transaction((userId: string, entries: readonly NewTranscriptEntry[]) => {
    const user = lastSeq.get(userId);
    if (user === undefined) throw new Error(`cannot append to the transcript of unknown user ${userId}`);
    let seq = user.last_seq;
    const results: Array<TranscriptEntry & { readonly duplicate: boolean }> = [];
    for (const entry of entries) {
      const clientId = entry.clientId ?? null;
      const existing = clientId === null ? undefined : byClientId.get(userId, clientId);
      if (existing !== undefined) {
        results.push({ ...toEntry(existing), duplicate: true });
        continue;
      }
      seq += 1;
      const origin = originOf(entry);
      insert.run({
        userId,
        seq,
        from: entry.from,
        clientId,
        at: entry.at,
        message: toJson(entry.message),
        dialogId: origin?.dialogId ?? null,
        stepId: origin?.stepId ?? null,
      });
      results.push({
        userId,
        seq,
        from: entry.from,
        clientId,
        at: entry.at,
        message: entry.message,
        ...origin,
        duplicate: false,
      });
    }
    if (seq !== user.last_seq) setLastSeq.run(seq, userId);
    return results;
  });

  // A new version too: a copy of the user read before (another tab's) knows neither the message nor the mark, and its commit must conflict.
  const markPending = db.prepare('UPDATE users SET pending_seq = ?, version = version + 1 WHERE user_id = ?');
  // The entry and its mark in one transaction: never a stored message that nobody will answer.
  const pendingTx = db.transaction((userId: string, entry: NewTranscriptEntry) => {
    const [stored] = appendTx(userId, [entry]);
    if (stored === undefined) throw new Error(`no transcript entry stored for user ${userId}`);
    if (!stored.duplicate) markPending.run(stored.seq, userId);
    return stored;
  });

  return {
    async appendTranscript(userId, entries) {
      return appendTx.immediate(userId, entries);
    },
    async storePending(userId, entry) {
      return pendingTx.immediate(userId, entry);
    },
    async readTranscript(userId, afterSeq, limit) {
      return read.all(userId, afterSeq, limit).map(toEntry);
    },
  };
}
