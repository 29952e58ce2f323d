/**
 * The inbound events a connector's webhook accepted (channels/connector/): one row per
 * (channel, vendor event id), held by a unique index, so a vendor's redelivery, however
 * many times and however close together, is recognised by the store itself and never runs a
 * second turn (a read-then-write check would let two copies in the same moment both pass).
 * A port of its own beside the Store: only the connectors use it.
 */
export interface ChannelInbox {
  /**
   * Records the event when it is new. `fresh` is true for the one call that stored it; every
   * other call for the same (channel, eventId), concurrent or later, gets false with the `jobId`
   * and `receivedAt` stored with the first, so the caller can make sure that job exists.
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
  /** The job that runs the event's turn. */
  readonly jobId: string;
  /** When the webhook received it (ms since the epoch). */
  readonly receivedAt: number;
}
