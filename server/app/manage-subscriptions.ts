import { randomBytes } from 'node:crypto';
import type { Clock } from '../ports/clock.ts';
import type { EventKind, Subscription, SubscriptionStore } from '../ports/event-subscriptions.ts';
import { HttpError } from '../ports/http-error.ts';
import type { Logger } from '../ports/logger.ts';

/** Subscriptions a bot may have: each costs a delivery job, and a platform subscribes per zap or scenario. */
export const MAX_SUBSCRIPTIONS = 100;

export interface SubscriptionDeps {
  readonly subscriptions: SubscriptionStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Why the integration client would refuse to call this URL (a private address, a host outside INTEGRATION_ALLOWED_HOSTS), or undefined. */
  checkTarget(url: string): Promise<string | undefined>;
  /** Starts deliveries to a subscription now. */
  wake(subscriptionId: string): Promise<void>;
  /** Tells the event sink which kinds are wanted now. */
  refresh(): Promise<void>;
}

/** A subscription as the management API shows it: never its secret; with how many events wait for it. */
export interface SubscriptionView {
  readonly id: string;
  readonly targetUrl: string;
  readonly events: readonly EventKind[];
  readonly status: Subscription['status'];
  readonly createdAt: number;
  readonly failures: number;
  readonly lastError: string | null;
  readonly lastAttemptAt: number | null;
  readonly lastDeliveredAt: number | null;
  readonly pausedAt: number | null;
  /** Events recorded for it and not yet delivered. */
  readonly pending: number;
}

/** Counts a backlog; a listing passes one memo so that subscriptions with the same cursor and kinds share one count. */
type Backlog = (subscription: Subscription) => Promise<number>;

function backlogCounter(deps: SubscriptionDeps): Backlog {
  const counted = new Map<string, Promise<number>>();
  return (subscription) => {
    const key = `${subscription.cursor}:${[...subscription.kinds].sort().join(',')}`;
    let count = counted.get(key);
    if (!count) {
      count = deps.subscriptions.countEvents({ afterSeq: subscription.cursor, kinds: subscription.kinds });
      counted.set(key, count);
    }
    return count;
  };
}

async function view(
  deps: SubscriptionDeps,
  subscription: Subscription,
  backlog: Backlog = backlogCounter(deps),
): Promise<SubscriptionView> {
  const pending = await backlog(subscription);
  return {
    id: subscription.id,
    targetUrl: subscription.targetUrl,
    events: subscription.kinds,
    status: subscription.status,
    createdAt: subscription.createdAt,
    failures: subscription.failures,
    lastError: subscription.lastError,
    lastAttemptAt: subscription.lastAttemptAt,
    lastDeliveredAt: subscription.lastDeliveredAt,
    pausedAt: subscription.pausedAt,
    pending,
  };
}

const notFound = (id: string) =>
  new HttpError(404, 'not_found', `There is no subscription ${id}; list them with GET /api/management/subscriptions.`);

/**
 * Subscribes a target URL to event kinds. The URL must be one the integration client would call
 * (same SSRF rules: no private or loopback address unless INTEGRATION_ALLOWED_HOSTS lists the
 * host). The signing secret is generated here unless given, and shown once, in this answer.
 */
export async function subscribe(
  deps: SubscriptionDeps,
  input: { targetUrl: string; events: readonly EventKind[]; secret?: string },
): Promise<SubscriptionView & { secret: string }> {
  const refused = await deps.checkTarget(input.targetUrl);
  if (refused) throw new HttpError(400, 'forbidden_destination', refused, { field: 'targetUrl' });
  if ((await deps.subscriptions.listSubscriptions()).length >= MAX_SUBSCRIPTIONS) {
    throw new HttpError(
      409,
      'limit_reached',
      `This bot has ${MAX_SUBSCRIPTIONS} subscriptions, the most it may have; delete one it no longer needs first.`,
    );
  }
  const secret = input.secret ?? randomBytes(32).toString('base64url');
  const created = await deps.subscriptions.createSubscription({
    id: `sub_${randomBytes(12).toString('base64url')}`,
    targetUrl: input.targetUrl,
    kinds: [...new Set(input.events)],
    secret,
    createdAt: deps.clock.now(),
  });
  await deps.refresh();
  deps.logger.info(
    {
      event: 'subscription_created',
      subscriptionId: created.id,
      host: new URL(created.targetUrl).host,
      kinds: created.kinds,
    },
    'an event subscription was created',
  );
  return { ...(await view(deps, created)), secret };
}

/**
 * Every subscription with its backlog. Up to MAX_SUBSCRIPTIONS of them: a count each would be up to
 * 100 queries a listing, so subscriptions that share a cursor and kinds (the usual case: every
 * caught-up subscriber of the same kinds, every new one before the first event) share one count.
 */
export async function listSubscriptions(deps: SubscriptionDeps): Promise<SubscriptionView[]> {
  const backlog = backlogCounter(deps);
  return Promise.all(
    (await deps.subscriptions.listSubscriptions()).map((subscription) => view(deps, subscription, backlog)),
  );
}

export async function getSubscription(deps: SubscriptionDeps, id: string): Promise<SubscriptionView> {
  const subscription = await deps.subscriptions.getSubscription(id);
  if (!subscription) throw notFound(id);
  return view(deps, subscription);
}

/** Ends a subscription: no delivery starts after this answers. */
export async function unsubscribe(deps: SubscriptionDeps, id: string): Promise<void> {
  if (!(await deps.subscriptions.deleteSubscription(id))) throw notFound(id);
  await deps.refresh();
  deps.logger.info({ event: 'subscription_deleted', subscriptionId: id }, 'an event subscription was deleted');
}

/** Resumes a paused subscriber: deliveries start again where they stopped, so it gets what it missed, once each. */
export async function resumeSubscription(deps: SubscriptionDeps, id: string): Promise<SubscriptionView> {
  const resumed = await deps.subscriptions.updateSubscription(id, { status: 'active', failures: 0, pausedAt: null });
  if (!resumed) throw notFound(id);
  await deps.wake(id);
  return view(deps, resumed);
}

/**
 * Delivers again every recorded event of the subscription's kinds that happened at or after
 * `fromMs` (and everything later), with their original ids, so the subscriber can deduplicate;
 * a paused subscription is resumed. The log keeps events for SUBSCRIPTION_EVENT_DAYS.
 */
export async function replaySubscription(
  deps: SubscriptionDeps,
  id: string,
  fromMs: number,
): Promise<SubscriptionView> {
  const subscription = await deps.subscriptions.getSubscription(id);
  if (!subscription) throw notFound(id);
  const first = await deps.subscriptions.firstEventSeqAt(fromMs);
  const cursor = first === null ? await deps.subscriptions.lastEventSeq() : first - 1;
  const moved = await deps.subscriptions.updateSubscription(id, {
    cursor,
    status: 'active',
    failures: 0,
    pausedAt: null,
  });
  if (!moved) throw notFound(id);
  await deps.wake(id);
  deps.logger.info(
    { event: 'subscription_replayed', subscriptionId: id, fromMs },
    'an event subscription replays events from a point in time',
  );
  return view(deps, moved);
}
