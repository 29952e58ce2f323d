import { z } from 'zod';
import { signWebhook } from '../../app/webhook-signature.ts';
import type { Clock } from '../../ports/clock.ts';
import type { BotEventRecord, Subscription, SubscriptionStore } from '../../ports/event-subscriptions.ts';
import type { Logger } from '../../ports/logger.ts';
import type { NewJob, Store } from '../../ports/store.ts';
import type { JobHandler } from '../job-runner.ts';
import type { SignedPostSender } from '../../ports/signed-post.ts';

/** The job kind that delivers a subscription's events: one job per subscription, which waits between runs. */
export const SUBSCRIPTION_DELIVERY_JOB = 'subscription_delivery';
/** Tries again to start a delivery job that was running when events arrived for it. */
export const SUBSCRIPTION_WAKE_JOB = 'subscription_wake';

export const deliveryJobId = (subscriptionId: string) => `${SUBSCRIPTION_DELIVERY_JOB}:${subscriptionId}`;

/** Events read per run; the job runs again at once while there are more. */
const BATCH = 25;
/** How long the subscriber's server may take to answer one delivery. */
const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliverySettings {
  /** Failed attempts in a row after which the subscriber is paused (SUBSCRIPTION_PAUSE_AFTER). */
  readonly pauseAfter: number;
  /** Wait before the first retry; it doubles with each failure (SUBSCRIPTION_RETRY_MIN, ms). */
  readonly retryMinMs: number;
  /** The longest wait between retries (SUBSCRIPTION_RETRY_MAX, ms). */
  readonly retryMaxMs: number;
  /** How long an idle delivery job sleeps before it looks at the log again, should a wake have been missed. */
  readonly idleMs: number;
}

export interface DeliveryJobOptions {
  readonly store: Store;
  readonly subscriptions: SubscriptionStore;
  readonly send: SignedPostSender;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The bot's id, in every delivery and in the user's trigger address. */
  readonly botId: string;
  readonly settings: DeliverySettings;
}

/** The delivery job of a subscription, due now: it runs (or runs again) at once. */
export function deliveryJob(subscriptionId: string, now: number): NewJob {
  // Many attempts: the job handles delivery failures itself (deferring); only a store failure throws.
  return {
    id: deliveryJobId(subscriptionId),
    kind: SUBSCRIPTION_DELIVERY_JOB,
    payload: { subscriptionId },
    runAt: now,
    maxAttempts: 1000,
  };
}

/** What a subscriber receives: one event a request. The OpenAPI document's BotEvent schema describes it. */
export function deliveryBody(event: BotEventRecord, subscription: Pick<Subscription, 'id'>, botId: string): string {
  const address = Buffer.from(JSON.stringify({ bot: botId, user: event.userId, channelId: event.channelId })).toString(
    'base64url',
  );
  return JSON.stringify({
    id: event.id,
    kind: event.kind,
    occurredAt: new Date(event.at).toISOString(),
    sequence: event.seq,
    bot: botId,
    subscriptionId: subscription.id,
    user: { id: event.userId, channelId: event.channelId, address },
    data: event.data,
  });
}

/** Exponential from retryMinMs, doubling, capped at retryMaxMs, with ±20 % jitter. */
export function retryDelay(settings: DeliverySettings, failures: number): number {
  const base = Math.min(settings.retryMinMs * 2 ** Math.max(0, failures - 1), settings.retryMaxMs);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

const payloadSchema = z.object({ subscriptionId: z.string() });

/**
 * Delivers a subscription's events, one at a time in the log's order (so one user's in the order
 * they happened), each a signed POST carrying the event's id for deduplication. The cursor moves
 * past an event once its POST was answered 2xx, with a compare-and-set, so a replay that moved the
 * cursor meanwhile wins. A failure waits (exponential backoff) and tries the same event again;
 * after `pauseAfter` failures in a row the subscriber is paused, visibly, and keeps its cursor:
 * resumed, it receives what it missed, once each. A 410 Gone ends the subscription, as REST hooks
 * ask. The subscription is read again before every POST, so an unsubscribe stops deliveries at once.
 */
export function subscriptionDeliveryHandler(options: DeliveryJobOptions): JobHandler {
  const { subscriptions, clock, logger, settings } = options;
  return async (job) => {
    const { subscriptionId } = payloadSchema.parse(job.payload);
    let subscription = await subscriptions.getSubscription(subscriptionId);
    if (!subscription || subscription.status !== 'active') return;
    const top = await subscriptions.lastEventSeq();
    const batch = await subscriptions.readEvents({
      afterSeq: subscription.cursor,
      kinds: subscription.kinds,
      limit: BATCH,
    });
    if (batch.length === 0) {
      // Every event up to `top` was visible to the read and none is wanted: no need to look at them again.
      if (top > subscription.cursor)
        await subscriptions.updateSubscription(subscriptionId, { cursor: top }, subscription.cursor);
      return { deferUntil: clock.now() + settings.idleMs };
    }
    let expected = subscription.cursor;
    for (const event of batch) {
      subscription = await subscriptions.getSubscription(subscriptionId);
      if (!subscription || subscription.status !== 'active') return;
      // A replay moved the cursor meanwhile: read again from where it is now.
      if (subscription.cursor !== expected) return { deferUntil: clock.now() };
      const outcome = await deliver(options, subscription, event);
      const now = clock.now();
      if (outcome === 'delivered') {
        const moved = await subscriptions.updateSubscription(
          subscriptionId,
          { cursor: event.seq, failures: 0, lastError: null, lastAttemptAt: now, lastDeliveredAt: now },
          subscription.cursor,
        );
        if (!moved) return { deferUntil: now };
        expected = event.seq;
        continue;
      }
      if (outcome === 'gone') {
        await subscriptions.deleteSubscription(subscriptionId);
        logger.info(
          { event: 'subscription_removed', subscriptionId, host: hostOf(subscription.targetUrl) },
          'a subscriber answered 410 Gone: its subscription was removed, as REST hooks ask',
        );
        return;
      }
      const failures = subscription.failures + 1;
      const pause = failures >= settings.pauseAfter;
      await subscriptions.updateSubscription(
        subscriptionId,
        {
          failures,
          lastError: outcome.error,
          lastAttemptAt: now,
          ...(pause ? { status: 'paused', pausedAt: now } : {}),
        },
        subscription.cursor,
      );
      if (pause) {
        logger.warn(
          {
            event: 'subscription_paused',
            subscriptionId,
            host: hostOf(subscription.targetUrl),
            failures,
            lastError: outcome.error,
          },
          'a subscriber kept failing and was paused; it keeps its place and receives what it missed once resumed (POST …/subscriptions/{id}/resume)',
        );
        return;
      }
      return { deferUntil: now + retryDelay(settings, failures) };
    }
    return { deferUntil: clock.now() };
  };
}

async function deliver(
  options: DeliveryJobOptions,
  subscription: Subscription,
  event: BotEventRecord,
): Promise<'delivered' | 'gone' | { error: string }> {
  const body = deliveryBody(event, subscription, options.botId);
  const timestamp = String(Math.floor(options.clock.now() / 1000));
  try {
    const response = await options.send({
      url: subscription.targetUrl,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'chatbot-subscriptions/1',
        'x-event-id': event.id,
        'x-event-kind': event.kind,
        'x-subscription-id': subscription.id,
        'x-timestamp': timestamp,
        'x-signature': signWebhook(subscription.secret, timestamp, body),
      },
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    });
    if (response.status >= 200 && response.status < 300) return 'delivered';
    if (response.status === 410) return 'gone';
    return { error: `the target answered HTTP ${response.status}` };
  } catch (error) {
    return { error: String((error as Error)?.message ?? error).slice(0, 500) };
  }
}

/** Only the host goes to the log: a target URL's path can be what grants access (a Zapier or Make hook). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(not a URL)';
  }
}

export interface WakeJobOptions {
  readonly store: Store;
  readonly clock: Clock;
}

/** Schedules a subscription's delivery job now; while that job is running (it may have looked already), tries again shortly. */
export function subscriptionWakeHandler(options: WakeJobOptions): JobHandler {
  return async (job) => {
    const { subscriptionId } = payloadSchema.parse(job.payload);
    const now = options.clock.now();
    const started = await options.store.scheduleJob(deliveryJob(subscriptionId, now));
    return started ? undefined : { deferUntil: now + 100 };
  };
}

/**
 * Starts the delivery of a subscription now, or, when its job is running this very moment, a
 * little later. Not for a subscriber that is failing: its job waits out its backoff, and new
 * events must not make it hammer a server that is down.
 */
export async function wakeDelivery(store: Store, subscriptionId: string, now: number): Promise<void> {
  if (await store.scheduleJob(deliveryJob(subscriptionId, now))) return;
  await store.scheduleJob({
    id: `${SUBSCRIPTION_WAKE_JOB}:${subscriptionId}`,
    kind: SUBSCRIPTION_WAKE_JOB,
    payload: { subscriptionId },
    runAt: now + 100,
    maxAttempts: 1000,
  });
}
