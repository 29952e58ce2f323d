import type { BotEvent, TranscriptItem } from '../../../shared/protocol.ts';
import type { Delivery } from '../../ports/delivery.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import type { RestChannel } from '../../settings/rest-channels.ts';
import {
  CALLBACK_ATTEMPTS,
  CALLBACK_JOB,
  callbackGroup,
  callbackJobId,
  type CallbackPayload,
  type CallbackRef,
} from './callback-job.ts';
import { toItem } from '../../app/to-item.ts';

/** Users remembered as handed off; past it the memory starts over (a turn decides afresh). */
const MAX_HANDED_OFF = 100_000;

/** A bot → page event as a REST channel's message, stored in the user's transcript with a seq. */
export type RestEventMessage = {
  readonly type: 'event';
  readonly name: string;
  readonly payload: Readonly<Record<string, unknown>>;
};

/** What the bot said to a user while a request of theirs was open: answered in its response. */
export interface Collected {
  readonly messages: TranscriptItem[];
  readonly events: BotEvent[];
}

export interface RestDelivery extends Delivery {
  /**
   * Holds what the bot says to the user, instead of calling back, until the returned
   * function is called; that function hands over what was held. One at a time per user
   * (the channel serialises a user's requests).
   */
  collect(userId: string): () => Collected;
}

/**
 * Delivery for one REST channel. What the bot says while the user's request is open
 * goes into the response; everything else (timers, async results, triggers) becomes a
 * durable callback job, stored in the turn's own commit (handOff), when the channel has
 * a callback URL, or waits in the transcript for GET …/messages when it has none. The
 * rare message said while a request was open but after it answered is called back by a
 * job of its own.
 */
export function restDelivery(
  channel: RestChannel,
  scheduler: Scheduler,
  logger: Logger,
  now: () => number,
): RestDelivery {
  const collecting = new Map<string, Collected>();
  // Due now, in the user's group so one user's callbacks arrive in order.
  const callbackJob = (userId: string, payload: CallbackPayload | CallbackRef) => ({
    id: callbackJobId(now()),
    kind: CALLBACK_JOB,
    payload,
    runAt: now(),
    maxAttempts: CALLBACK_ATTEMPTS,
    group: callbackGroup(userId),
  });
  // One user's jobs are written one after another, so their ids (which order them) are in store before a later one can run.
  const writes = new Map<string, Promise<void>>();
  const callBack = (userId: string, payload: Omit<CallbackPayload, 'channel' | 'user'>) => {
    if (!channel.callbackUrl) return;
    const previous = writes.get(userId) ?? Promise.resolve();
    const write = previous.then(() =>
      scheduler.schedule(callbackJob(userId, { channel: channel.name, user: userId, ...payload })),
    );
    const settled = write.catch((error: unknown) => {
      logger.error(
        { event: 'callback_schedule_failed', channel: channel.name, userId, err: error },
        'could not store a callback; the channel can read it with GET …/messages',
      );
    });
    writes.set(userId, settled);
    void settled.then(() => {
      if (writes.get(userId) === settled) writes.delete(userId);
    });
  };
  // Users whose current turn was handed to a callback job stored with the turn: its messages and events go there only.
  const handedOff = new Set<string>();
  return {
    eventMessages(_user, events) {
      // Bot → page events become event messages: in the answer, the callback and GET …/messages alike.
      return events.map((event): RestEventMessage => ({ type: 'event', name: event.name, payload: event.payload }));
    },
    handOff(user, turn) {
      const userId = user.userId;
      handedOff.delete(userId);
      if (!channel.callbackUrl || collecting.has(userId) || (turn.lastSeq < turn.firstSeq && turn.events.length === 0))
        return [];
      if (handedOff.size >= MAX_HANDED_OFF) handedOff.clear();
      handedOff.add(userId);
      // The job finds the turn's entries by seq and time: a turn that never committed leaves it nothing to send.
      const payload: CallbackRef = {
        channel: channel.name,
        user: userId,
        firstSeq: turn.firstSeq,
        lastSeq: turn.lastSeq,
        at: turn.at,
        events: [...turn.events],
      };
      return [callbackJob(userId, { ...payload })];
    },
    deliver(userId, entries) {
      if (handedOff.has(userId)) return;
      // The user's own entries come back in the response's seq; only the bot's are sent.
      const items = entries.filter((entry) => entry.from === 'bot').map(toItem);
      if (items.length === 0) return;
      const open = collecting.get(userId);
      if (open) open.messages.push(...items);
      // Said while a request was open, but after it answered: called back on its own.
      else callBack(userId, { messages: items, events: [] });
    },
    typing() {
      // A REST channel has no "typing…": its caller waits for the response.
    },
    event(userId, event) {
      if (handedOff.has(userId)) return;
      const open = collecting.get(userId);
      if (open) open.events.push(event);
      else callBack(userId, { messages: [], events: [event] });
    },
    reach(userId) {
      // A request of theirs open now answers with it; else the callback URL gets it, or it waits for GET.
      if (collecting.has(userId)) return 'live';
      return channel.callbackUrl === undefined ? 'queued' : 'callback';
    },
    collect(userId) {
      const held: Collected = { messages: [], events: [] };
      collecting.set(userId, held);
      return () => {
        if (collecting.get(userId) === held) collecting.delete(userId);
        return held;
      };
    },
  };
}
