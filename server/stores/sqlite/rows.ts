import type { NewTranscriptEntry, TranscriptEntry } from '../../ports/store.ts';
import { fromJson } from './json.ts';

/** A row of the users table as better-sqlite3 returns it (see migrations.ts). */
export interface UserRow {
  seq: number;
  user_id: string;
  channel_id: string;
  position: string | null;
  variables: string;
  user_data: string;
  last_message_at: number | null;
  created_at: number;
  updated_at: number;
  version: number;
  last_seq: number;
  last_trigger: string | null;
  pending_seq: number | null;
  /** JSON of a preview user's mark (ports/preview.ts); NULL for everyone else. */
  preview: string | null;
}

/** A row of the transcript table. */
export interface TranscriptRow {
  user_id: string;
  seq: number;
  sender: 'user' | 'bot';
  client_id: string | null;
  at: number;
  message: string;
  /** Since schema version 7; null on older rows and on entries no step said. */
  dialog_id: string | null;
  step_id: string | null;
}

export function toEntry(row: TranscriptRow): TranscriptEntry {
  const entry: TranscriptEntry = {
    userId: row.user_id,
    seq: row.seq,
    from: row.sender,
    clientId: row.client_id,
    at: row.at,
    message: fromJson(row.message),
  };
  return row.dialog_id === null || row.step_id === null
    ? entry
    : { ...entry, dialogId: row.dialog_id, stepId: row.step_id };
}

/** A new entry's origin as stored: both columns, or neither. */
export function originOf(entry: NewTranscriptEntry): { dialogId: string; stepId: string } | undefined {
  return entry.dialogId === undefined || entry.stepId === undefined
    ? undefined
    : { dialogId: entry.dialogId, stepId: entry.stepId };
}
