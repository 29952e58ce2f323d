import type { BotEvent } from '../../shared/protocol.ts';
import type { TranscriptEntry } from './store.ts';

export interface DeliverOptions {
  /**
   * The connection that sent the user's entry among `entries`: it was acked
   * with the seq, so that connection gets only the other entries (the user's
   * other open widgets still get all of them).
   */
  readonly origin?: string;
}

/** Pushes stored transcript entries to wherever the user is connected now; a no-op when offline. */
export interface Delivery {
  deliver(userId: string, entries: readonly TranscriptEntry[], options?: DeliverOptions): void;
  /** Tells the user's open widgets that the bot is working (true) or done (false). */
  typing(userId: string, on: boolean): void;
  /** Runs the page's listeners for a bot event in the user's open widgets. */
  event(userId: string, event: BotEvent): void;
  /** True when at least one widget of the user is connected to this server now. */
  isOnline(userId: string): boolean;
}
