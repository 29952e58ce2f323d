import type { TranscriptEntry } from './store.ts';

/** Pushes stored transcript entries to wherever the user is connected now; a no-op when offline. */
export interface Delivery {
  deliver(userId: string, entries: readonly TranscriptEntry[]): void;
  /** Tells the user's open widgets that the bot is working (true) or done (false). */
  typing(userId: string, on: boolean): void;
}
