import type { NewTranscriptEntry, TranscriptEntry } from '../../ports/store.ts';
import { fromJson, toJson } from './mongo-common.ts';

export interface TranscriptDoc {
  userId: string;
  seq: number;
  from: 'user' | 'bot';
  clientId: string | null;
  /** `c:<clientId>` when the entry has one, else `s:<seq>`; unique per user. */
  dedupKey: string;
  at: number;
  message: string;
  /** The dialog and step that said a bot message; absent on the user's, on those no step said and on older documents. */
  dialogId?: string;
  stepId?: string;
}

export function toEntry(doc: TranscriptDoc): TranscriptEntry {
  const entry: TranscriptEntry = {
    userId: doc.userId,
    seq: doc.seq,
    from: doc.from,
    clientId: doc.clientId,
    at: doc.at,
    message: fromJson(doc.message),
  };
  return doc.dialogId === undefined || doc.stepId === undefined
    ? entry
    : { ...entry, dialogId: doc.dialogId, stepId: doc.stepId };
}

/** A new entry as a transcript document with its seq. */
export function transcriptDoc(userId: string, seq: number, entry: NewTranscriptEntry): TranscriptDoc {
  const clientId = entry.clientId ?? null;
  const doc: TranscriptDoc = {
    userId,
    seq,
    from: entry.from,
    clientId,
    dedupKey: clientId === null ? `s:${seq}` : `c:${clientId}`,
    at: entry.at,
    message: toJson(entry.message),
  };
  if (entry.dialogId !== undefined && entry.stepId !== undefined) {
    doc.dialogId = entry.dialogId;
    doc.stepId = entry.stepId;
  }
  return doc;
}
