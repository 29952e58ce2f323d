import type { TranscriptEntry } from '../../ports/store.ts';

/** The dialog and step that said a bot message. */
export interface Origin {
  readonly dialogId: string;
  readonly stepId: string;
}

/** What may hold an origin: a new entry, a stored row or document (absent or NULL when there is none). */
interface OriginFields {
  readonly dialogId?: string | null;
  readonly stepId?: string | null;
}

/** An origin is both parts or none: an entry with one part only has none, as the stores keep it. */
export function originOf(fields: OriginFields): Origin | undefined {
  return fields.dialogId == null || fields.stepId == null
    ? undefined
    : { dialogId: fields.dialogId, stepId: fields.stepId };
}

/** A stored entry as the port gives it: with its origin when both parts were stored. */
export function withOrigin(entry: TranscriptEntry, stored: OriginFields): TranscriptEntry {
  const origin = originOf(stored);
  return origin === undefined ? entry : { ...entry, ...origin };
}
