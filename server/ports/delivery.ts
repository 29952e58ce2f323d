import type { BotEvent } from '../../shared/protocol.ts';
import type { NewJob, TranscriptEntry, UserRecord } from './store.ts';

/**
 * How a user hears from the bot right now: `live` (a widget is connected, or a channel
 * request of theirs is open and answers with it), `callback` (their channel's callback URL
 * gets it, signed), or `queued` (stored, and delivered on the next connect or read with GET).
 */
export type Reach = 'live' | 'callback' | 'queued';

/** Pushes stored transcript entries to wherever the user is connected now; a no-op when offline. */
export interface Delivery {
  deliver(userId: string, entries: readonly TranscriptEntry[]): void;
  /** Tells the user's open widgets that the bot is working (true) or done (false). */
  typing(userId: string, on: boolean): void;
  /** Runs the page's listeners for a bot event in the user's open widgets. */
  event(userId: string, event: BotEvent): void;
  /**
   * How the user would hear from the bot now (see Reach): for the web chat, `live` when at least one
   * widget is connected (to this server, or in a cluster to any node). `channelId` is the one the
   * caller addresses the user by, for a user whose channel is not known yet.
   */
  reach(userId: string, channelId: string): Reach | Promise<Reach>;
  /**
   * Refuses a trigger the user's channel cannot carry now (a closed WhatsApp window, a number that
   * opted out of SMS) by throwing an HttpError that names the rule, before the trigger is stored, so
   * its caller hears it instead of a 202 followed by a vendor's refusal. `user` is as stored (null
   * for a user never seen); `channelId` the one the caller addresses them by. Absent: every trigger
   * is carried.
   */
  admitTrigger?(user: UserRecord | null, channelId: string, dialogId: string, now: number): void;
  /**
   * Jobs that carry a turn's messages and events to the user later (a channel's callback),
   * stored in the turn's own commit so that a crash between the two cannot lose them.
   * Called before each commit attempt of every turn, with the user as the turn read it.
   */
  handOff?(user: UserRecord, turn: TurnHandOff): readonly NewJob[];
  /**
   * The bot's events of a turn as messages to store in the user's transcript after the
   * turn's own, for a channel that reads back what it missed (none when absent).
   */
  eventMessages?(user: UserRecord, events: readonly BotEvent[]): readonly Readonly<Record<string, unknown>>[];
  /**
   * A linked person (ports/identity-links.ts) writes through this channel now: their answers go
   * there until they write through another. True when that changed where their answers go (or it
   * was not known here yet). Absent: a user's channel is the one stored with them.
   */
  via?(userId: string, channelId: string): boolean;
  /**
   * Whether the user has a web chat open right now: a widget connected to this server, or in a cluster
   * to any node. A trigger for a linked person goes there first (app/reach-person.ts). Absent: never.
   */
  webchatOpen?(userId: string): boolean | Promise<boolean>;
  /** The web chat user `fromUserId` was linked into the person `toUserId`: their open widgets speak for the person from now on. */
  moved?(fromUserId: string, toUserId: string): void;
  /**
   * The user's erasure begins (`begins`, before anything is erased) or has ended: what this delivery
   * keeps of them goes, and nothing it was about to send them leaves (a channel's send job under way).
   */
  erasing?(userId: string, begins: boolean): void;
}

/** What a turn is about to commit, as a hand-off job needs to find it again. */
export interface TurnHandOff {
  /** The bot's entries of the turn will have the seqs firstSeq … lastSeq (none when lastSeq < firstSeq). */
  readonly firstSeq: number;
  readonly lastSeq: number;
  /** The turn's time, which its entries carry as `at`. */
  readonly at: number;
  readonly events: readonly BotEvent[];
}
