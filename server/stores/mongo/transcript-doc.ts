import type { Collection } from 'mongodb';
import type { NewTranscriptEntry, TranscriptEntry } from '../../ports/store.ts';
import { originOf, withOrigin } from '../common/transcript-origin.ts';
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
  return withOrigin(
    {
      userId: doc.userId,
      seq: doc.seq,
      from: doc.from,
      clientId: doc.clientId,
      at: doc.at,
      message: fromJson(doc.message),
    },
    doc,
  );
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
  const origin = originOf(entry);
  return origin === undefined ? doc : { ...doc, ...origin };
}

/** The user's entry with this clientId, if one is stored: the unique (userId, dedupKey) index finds it. */
export function entryByClientId(
  transcript: Collection<TranscriptDoc>,
  userId: string,
  clientId: string,
): Promise<TranscriptDoc | null> {
  return transcript.findOne({ userId, dedupKey: `c:${clientId}` }, { projection: { _id: 0 } });
}
