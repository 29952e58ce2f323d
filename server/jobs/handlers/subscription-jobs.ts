import type { BotEventSink } from '../../ports/bot-events.ts';
import type { Clock } from '../../ports/clock.ts';
import type { SubscriptionStore } from '../../ports/event-subscriptions.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import type { Store } from '../../ports/store.ts';
import type { JobHandler } from '../job-runner.ts';
import { BOT_EVENTS_JOB, botEventSink, botEventsJobHandler } from './bot-events.ts';
import {
  SUBSCRIPTION_DELIVERY_JOB,
  SUBSCRIPTION_WAKE_JOB,
  subscriptionDeliveryHandler,
  subscriptionWakeHandler,
  wakeDelivery,
  type DeliverySettings,
} from './subscription-delivery.ts';
import {
  SUBSCRIPTION_HOUSEKEEPING_JOB,
  scheduleSubscriptionHousekeeping,
  subscriptionHousekeepingHandler,
} from './subscription-housekeeping.ts';
import type { SignedPostSender } from '../../ports/signed-post.ts';

export interface SubscriptionJobsOptions {
  readonly store: Store;
  readonly subscriptions: SubscriptionStore;
  readonly jobs: Scheduler & { register(kind: string, handler: JobHandler): unknown };
  readonly clock: Clock;
  readonly logger: Logger;
  readonly send: SignedPostSender;
  readonly botId: string;
  readonly settings: DeliverySettings & { readonly eventDays: number };
}

export interface SubscriptionJobs {
  /** For AppDeps.events: where turns and use cases hand their events. */
  readonly sink: BotEventSink;
  /** Starts deliveries to a subscription now (after a subscribe, resume or replay). */
  wake(subscriptionId: string): Promise<void>;
  /** Reads again which kinds are wanted (after a subscribe or unsubscribe). */
  refresh(): Promise<void>;
  /** Schedules the hourly housekeeping; call once the job runner runs. */
  start(): Promise<void>;
  close(): void;
}

/** Registers the job kinds of event subscriptions and builds the event sink: server/start/subscriptions.ts wires it. */
export function registerSubscriptionJobs(options: SubscriptionJobsOptions): SubscriptionJobs {
  const { store, subscriptions, jobs, clock, logger } = options;
  const sink = botEventSink({ subscriptions, scheduler: jobs, logger });
  const wakeWanting: (kinds: ReadonlySet<string>) => Promise<void> = async (kinds) => {
    const now = clock.now();
    for (const subscription of await subscriptions.listSubscriptions()) {
      if (
        subscription.status === 'active' &&
        subscription.failures === 0 &&
        subscription.kinds.some((kind) => kinds.has(kind))
      )
        await wakeDelivery(store, subscription.id, now);
    }
  };
  jobs.register(BOT_EVENTS_JOB, botEventsJobHandler({ store, subscriptions, clock, logger, wake: wakeWanting }));
  jobs.register(
    SUBSCRIPTION_DELIVERY_JOB,
    subscriptionDeliveryHandler({
      store,
      subscriptions,
      send: options.send,
      clock,
      logger,
      botId: options.botId,
      settings: options.settings,
    }),
  );
  jobs.register(SUBSCRIPTION_WAKE_JOB, subscriptionWakeHandler({ store, clock }));
  jobs.register(
    SUBSCRIPTION_HOUSEKEEPING_JOB,
    subscriptionHousekeepingHandler({ store, subscriptions, clock, logger, eventDays: options.settings.eventDays }),
  );
  return {
    sink,
    wake: (subscriptionId) => wakeDelivery(store, subscriptionId, clock.now()),
    refresh: () => sink.refresh(),
    async start() {
      await sink.refresh();
      await scheduleSubscriptionHousekeeping((job) => jobs.schedule(job), clock.now());
    },
    close: () => sink.close(),
  };
}
