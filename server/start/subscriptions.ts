import type { SubscriptionDeps } from '../app/manage-subscriptions.ts';
import type { Config } from '../config.ts';
import { destinationProblem } from '../integrations/http/destination-policy.ts';
import type { SafeHttpClient } from '../integrations/http/safe-http-client.ts';
import { registerSubscriptionJobs, type SubscriptionJobs } from '../jobs/handlers/subscription-jobs.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { Clock } from '../ports/clock.ts';
import type { SubscriptionStore } from '../ports/event-subscriptions.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';

export interface SubscriptionWiring {
  /** The delivery jobs and the event sink (AppDeps.events). */
  readonly jobs: SubscriptionJobs;
  /** What the management API's subscription routes use. */
  readonly deps: SubscriptionDeps;
}

/**
 * Event subscriptions (REST hooks): their job kinds on the runner, and what the management API
 * needs. Deliveries leave through the callbacks' guarded client, and a target is checked against
 * the same rules when it is subscribed, so INTEGRATION_ALLOWED_HOSTS and the SSRF rules apply.
 */
export function wireSubscriptions(options: {
  readonly config: Config;
  readonly store: Store;
  readonly subscriptions: SubscriptionStore;
  readonly jobs: JobRunner;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly callbackClient: SafeHttpClient;
  readonly botId: string;
}): SubscriptionWiring {
  const { config, subscriptions, clock, logger, callbackClient } = options;
  const jobs = registerSubscriptionJobs({
    store: options.store,
    subscriptions,
    jobs: options.jobs,
    clock,
    logger,
    send: async (request) => ({
      status: (await callbackClient.send({ ...request, method: 'POST', maxRedirects: 0 })).status,
    }),
    botId: options.botId,
    settings: {
      pauseAfter: config.SUBSCRIPTION_PAUSE_AFTER,
      retryMinMs: config.SUBSCRIPTION_RETRY_MIN,
      retryMaxMs: config.SUBSCRIPTION_RETRY_MAX,
      idleMs: 60_000,
      eventDays: config.SUBSCRIPTION_EVENT_DAYS,
    },
  });
  return {
    jobs,
    deps: {
      subscriptions,
      clock,
      logger,
      checkTarget: async (url) =>
        destinationProblem(url, {
          ...(config.INTEGRATION_ALLOWED_HOSTS ? { allowedHosts: config.INTEGRATION_ALLOWED_HOSTS } : {}),
        }),
      wake: jobs.wake,
      refresh: jobs.refresh,
    },
  };
}
