import type { BotMessage, TranscriptItem, UserMessage } from '../../shared/protocol.ts';
import type { TranscriptEntry } from '../ports/store.ts';

/** A stored transcript entry as every channel sends it: the shared structured message with its seq. */
export function toItem(entry: TranscriptEntry): TranscriptItem {
  return {
    seq: entry.seq,
    from: entry.from,
    at: new Date(entry.at).toISOString(),
    clientId: entry.clientId,
    message: entry.message as unknown as BotMessage | UserMessage,
  };
}
