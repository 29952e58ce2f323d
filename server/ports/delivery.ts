import type { BotEvent } from '../../shared/protocol.ts';
import type { TranscriptEntry } from './store.ts';

/** Pushes stored transcript entries to wherever the user is connected now; a no-op when offline. */
export interface Delivery {
  deliver(userId: string, entries: readonly TranscriptEntry[]): void;
  /** Tells the user's open widgets that the bot is working (true) or done (false). */
  typing(userId: string, on: boolean): void;
  /** Runs the page's listeners for a bot event in the user's open widgets. */
  event(userId: string, event: BotEvent): void;
  /** True when at least one widget of the user is connected now (to this server, or in a cluster to any node). */
  isOnline(userId: string): boolean | Promise<boolean>;
}
