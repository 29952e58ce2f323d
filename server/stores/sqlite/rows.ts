import type { TranscriptEntry } from '../../ports/store.ts';
import { withOrigin } from '../common/transcript-origin.ts';
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
  return withOrigin(
    {
      userId: row.user_id,
      seq: row.seq,
      from: row.sender,
      clientId: row.client_id,
      at: row.at,
      message: fromJson(row.message),
    },
    { dialogId: row.dialog_id, stepId: row.step_id },
  );
}
