import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { BotEventSink, EventDraft } from '../../ports/bot-events.ts';
import type { Clock } from '../../ports/clock.ts';
import { EVENT_KINDS, type EventKind, type SubscriptionStore } from '../../ports/event-subscriptions.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import type { NewJob, Store } from '../../ports/store.ts';
import type { JobHandler } from '../job-runner.ts';

/** The job kind that records a user's events in the event log, in the order they happened. */
export const BOT_EVENTS_JOB = 'bot_events';
/** One user's event jobs run one after another, in id order (their acceptance order). */
export const botEventsGroup = (userId: string) => `bot_events:${userId}`;
/** Past this, a turn's events whose turn never committed (a crash between the job and the state on a store without transactions) are dropped. */
const TURN_WAIT_MS = 30_000;
/** How often the kinds subscriptions want are read again (a subscription made on another node). */
const REFRESH_MS = 5_000;

let arrivals = 0;
let lastStamp = 0;

/** Sortable by acceptance (time, then arrival in this process): the order of one user's events. */
function orderedId(now: number): string {
  lastStamp = Math.max(lastStamp, now);
  return `${lastStamp.toString(36).padStart(10, '0')}${(arrivals++).toString(36).padStart(8, '0')}${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

const payloadSchema = z.object({
  userId: z.string(),
  channelId: z.string(),
  /** The turn that produced the events: the user's version after it, and its time. Absent outside a turn. */
  turn: z
    .object({
      version: z.number().int(),
      at: z.number(),
      botEntries: z.object({ first: z.number().int(), last: z.number().int() }).optional(),
    })
    .optional(),
  /** An erasure: the user's events leave the log first. */
  erase: z.boolean().optional(),
  events: z.array(
    z.object({ id: z.string(), kind: z.enum(EVENT_KINDS), at: z.number(), data: z.record(z.string(), z.unknown()) }),
  ),
});

type TurnMark = { version: number; at: number; botEntries?: { first: number; last: number } };

function eventsJob(
  user: { readonly userId: string; readonly channelId: string },
  drafts: readonly EventDraft[],
  now: number,
  extra: { turn?: TurnMark; erase?: boolean },
): NewJob {
  const key = orderedId(now);
  return {
    id: `${BOT_EVENTS_JOB}:${key}`,
    kind: BOT_EVENTS_JOB,
    group: botEventsGroup(user.userId),
    runAt: now,
    maxAttempts: 20,
    payload: {
      userId: user.userId,
      channelId: user.channelId,
      ...extra,
      // The event ids are fixed here, once: a job run again records the same events, which the log then keeps once.
      events: drafts.map((draft, i) => ({
        id: `evt_${key}${i.toString(36)}`,
        kind: draft.kind,
        at: now,
        data: draft.data,
      })),
    },
  };
}

export interface BotEventSinkOptions {
  readonly subscriptions: SubscriptionStore;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
}

/**
 * The event sink the use cases hand their events to. It knows which kinds subscriptions want
 * (read again every few seconds, and at once after a change here), so a bot nobody subscribed
 * to stores nothing per turn.
 */
export function botEventSink(options: BotEventSinkOptions): BotEventSink & { refresh(): Promise<void>; close(): void } {
  let wanted: ReadonlySet<EventKind> = new Set();
  const refresh = async () => {
    try {
      const all = await options.subscriptions.listSubscriptions();
      wanted = new Set(all.flatMap((subscription) => subscription.kinds));
    } catch (error) {
      options.logger.error(
        { event: 'subscriptions_unreadable', err: error },
        'could not read the event subscriptions; the kinds wanted stay as they were',
      );
    }
  };
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  timer.unref();
  return {
    refresh,
    close: () => clearInterval(timer),
    wanted: () => wanted,
    turnJobs: (user, drafts, now, botEntries) =>
      drafts.length === 0
        ? []
        : [
            eventsJob(user, drafts, now, {
              turn: { version: user.version + 1, at: now, ...(botEntries ? { botEntries: { ...botEntries } } : {}) },
            }),
          ],
    forget: (userId) => options.subscriptions.eraseUserEvents(userId),
    async emit(user, drafts, now, emitOptions) {
      const kept = drafts.filter((draft) => wanted.has(draft.kind));
      // Nothing to record, so no job: a job names the user, and an erased user must leave no row behind.
      if (kept.length === 0) return;
      await options.scheduler.schedule(eventsJob(user, kept, now, emitOptions?.erase ? { erase: true } : {}));
    },
  };
}

export interface BotEventsJobOptions {
  readonly store: Store;
  readonly subscriptions: SubscriptionStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Starts deliveries to the subscriptions that want these kinds. */
  readonly wake: (kinds: ReadonlySet<EventKind>) => Promise<void>;
}

/**
 * Records a user's events in the event log, after every earlier event job of the user (a job
 * waiting for its retry holds the later ones back without using an attempt), then wakes the
 * deliveries. A turn's job first checks that its turn committed: on a store without transactions
 * the job is written just before the user's state, and a crash between them leaves a job for a
 * turn that never happened (the user's version never reached the turn's, or reached it at
 * another time), which records nothing.
 */
export function botEventsJobHandler(options: BotEventsJobOptions): JobHandler {
  return async (job) => {
    const payload = payloadSchema.parse(job.payload);
    const now = options.clock.now();
    const earlier = await options.store.firstUnfinishedJob(botEventsGroup(payload.userId), '', job.id);
    if (earlier) {
      const retryAt = earlier.status === 'pending' ? earlier.runAt : (earlier.leaseUntil ?? now + 1000);
      return { deferUntil: Math.max(now + 50, Math.min(retryAt, now + 1000)) };
    }
    if (payload.turn) {
      const stored = await turnStored(options.store, payload.userId, payload.turn);
      if (stored === 'not_yet') {
        if (now - payload.turn.at < TURN_WAIT_MS) return { deferUntil: now + 200 };
        options.logger.warn(
          { event: 'bot_events_dropped', userId: payload.userId, reason: 'turn_missing' },
          "a turn's events were dropped: the turn was never stored (the server stopped in between)",
        );
        return;
      }
      if (stored === 'no') {
        options.logger.warn(
          { event: 'bot_events_dropped', userId: payload.userId, reason: 'turn_replaced' },
          "a turn's events were dropped: another turn was stored in its place",
        );
        return;
      }
      if (stored === 'erased') return; // its events go with the user
    } else if (!payload.erase && !(await options.store.getUser(payload.userId))) {
      return; // erased after these events were handed over: they go with the user
    }
    if (payload.erase) await options.subscriptions.eraseUserEvents(payload.userId);
    await options.subscriptions.appendEvents(
      payload.events.map((event) => ({ ...event, userId: payload.userId, channelId: payload.channelId })),
    );
    if (payload.events.length > 0) await options.wake(new Set(payload.events.map((event) => event.kind)));
  };
}

/**
 * Whether the turn a job was stored with was stored itself. Its bot messages tell for sure: the
 * last one's seq holds an entry of the turn's time, or another turn's (the turn was redone after a
 * crash), or none yet. Without messages, the user's version and the time it was written tell,
 * except when later turns have moved the version on meanwhile (then it counts as stored).
 */
async function turnStored(store: Store, userId: string, turn: TurnMark): Promise<'yes' | 'no' | 'not_yet' | 'erased'> {
  const user = await store.getUser(userId);
  if (!user) return 'erased';
  if (turn.botEntries) {
    const [entry] = await store.readTranscript(userId, turn.botEntries.last - 1, 1);
    if (entry && entry.seq === turn.botEntries.last) return entry.from === 'bot' && entry.at === turn.at ? 'yes' : 'no';
    return user.lastSeq >= turn.botEntries.last ? 'no' : 'not_yet';
  }
  if (user.version < turn.version) return 'not_yet';
  if (user.version === turn.version && user.updatedAt !== turn.at) return 'no';
  return 'yes';
}
