import type { NewJob } from './store.ts';

/** How long an inbound event is remembered (its purge runs hourly): a vendor redelivers for a day at most. */
export const INBOX_KEEP_MS = 7 * 24 * 3_600_000;

/**
 * The inbound events a connector's webhook accepted (channels/connector/): one row per
 * (channel, vendor event id), held by a unique index, so a vendor's redelivery, however
 * many times and however close together, is recognised by the store itself and never runs a
 * second turn (a read-then-write check would let two copies in the same moment both pass).
 * A port of its own beside the Store: only the connectors use it.
 */
export interface ChannelInbox {
  /**
   * Records the event when it is new, and stores its turn's job with it. `fresh` is true for the
   * one call that stored them; every other call for the same (channel, eventId), concurrent or
   * later, stores nothing and gets false with the `jobId` and `receivedAt` stored with the first,
   * so the caller can make sure that job exists. The embedded store writes the event and its job
   * in one commit; a store that cannot writes the event first, so a crash in between leaves an
   * event without its job (the caller's redelivery check stores it), never a job run twice.
   */
  accept(
    event: InboundEvent,
  ): Promise<{ readonly fresh: boolean; readonly jobId: string; readonly receivedAt: number }>;
  /** Forgets events received before `before` (ms): a vendor redelivers for a day at most. Returns how many were removed. */
  purge(before: number): Promise<number>;
}

export interface InboundEvent {
  /** The connector's name, the users' channelId (e.g. "telegram"). */
  readonly channel: string;
  /** The vendor's own id of the event (Telegram's update_id, WhatsApp's message id, Twilio's MessageSid). */
  readonly eventId: string;
  /** The job that runs the event's turn, as Store.scheduleJob takes it (a lease included). */
  readonly job: NewJob;
  /** When the webhook received it (ms since the epoch). */
  readonly receivedAt: number;
}
