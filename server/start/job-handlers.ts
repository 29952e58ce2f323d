import type { Config } from '../config.ts';
import type { InsightsStore } from '../ports/insights.ts';
import type { AppDeps } from '../app/deps.ts';
import { PENDING_JOB_KIND } from '../app/answer-pending.ts';
import { TRIGGER_JOB } from '../app/trigger-dialog.ts';
import { CALLBACK_JOB, CallbackRefused, callbackJobHandler } from '../channels/rest/callback-job.ts';
import { IntegrationError } from '../integrations/http/integration-error.ts';
import { SafeHttpClient } from '../integrations/http/safe-http-client.ts';
import { INTEGRATION_JOB_KIND } from '../integrations/run-integration.ts';
import { integrationJobHandler } from '../jobs/handlers/integration.ts';
import { pendingTurnJobHandler } from '../jobs/handlers/pending-turn.ts';
import { RETENTION_JOB, retentionJobHandler, type RetentionSettings } from '../jobs/handlers/retention.ts';
import { TIMER_JOB_KIND, timerJobHandler } from '../jobs/handlers/timer.ts';
import { triggerJobHandler } from '../jobs/handlers/trigger.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { BotService } from '../bot/bot-service.ts';

/** Every durable job kind the server runs, each with its handler. */
export function registerJobHandlers(
  jobs: JobRunner,
  deps: AppDeps,
  bot: BotService,
  config: Config,
  retention: RetentionSettings,
  callbackClient: SafeHttpClient,
  audit?: { purgeAuditBefore(before: number): Promise<number> },
  insights?: InsightsStore,
): void {
  jobs.register(TIMER_JOB_KIND, timerJobHandler(deps));
  jobs.register(TRIGGER_JOB, triggerJobHandler(deps));
  jobs.register(PENDING_JOB_KIND, pendingTurnJobHandler(deps));
  // Through bot: a job scheduled before a reload runs on the runtime in service when it is due.
  // A call given up on reaches event subscribers as integration.failed.
  const failures = deps.events ? { events: deps.events, store: deps.store, clock: deps.clock } : undefined;
  jobs.register(INTEGRATION_JOB_KIND, (job) => integrationJobHandler(bot.current.runtime, failures)(job));
  jobs.register(
    RETENTION_JOB,
    retentionJobHandler({
      store: deps.store,
      clock: deps.clock,
      logger: deps.logger,
      settings: retention,
      ...(audit ? { audit } : {}),
      ...(insights ? { insights } : {}),
    }),
  );
  jobs.register(
    CALLBACK_JOB,
    callbackJobHandler({
      store: deps.store,
      channels: new Map(config.REST_CHANNELS.map((channel) => [channel.name, channel])),
      // Callbacks leave through the same guarded client as integration calls: INTEGRATION_ALLOWED_HOSTS applies.
      send: async (request) => {
        try {
          return { status: (await callbackClient.send({ ...request, method: 'POST', maxRedirects: 0 })).status };
        } catch (error) {
          // The destination rules will refuse it every time: no use retrying.
          if (error instanceof IntegrationError && error.kind === 'forbidden_destination')
            throw new CallbackRefused(error.message);
          throw error;
        }
      },
      logger: deps.logger,
      now: () => deps.clock.now(),
    }),
  );
}
