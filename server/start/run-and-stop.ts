import type { Server as HttpServer } from 'node:http';
import type { AppDeps } from '../app/deps.ts';
import type { RunningBot } from '../bot/bot-host.ts';
import type { BotService } from '../bot/bot-service.ts';
import type { ChatServer } from '../channels/webchat/socket-server.ts';
import type { Cluster } from '../cluster/cluster.ts';
import { drain } from '../cluster/drain.ts';
import type { Config } from '../config.ts';
import { schedulePreviewSweep } from '../jobs/handlers/preview-sweep.ts';
import { scheduleRetention, type retentionSettings } from '../jobs/handlers/retention.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Channels } from './channels.ts';
import type { Insights } from './insights.ts';
import type { OpenedStore } from './open-store.ts';
import type { outbound } from './outbound.ts';
import type { SubscriptionWiring } from './subscriptions.ts';

/** Once the server listens: the job runner, the insights recorder, the recurring jobs and the bot's runtime start. */
export async function startRunning(parts: {
  readonly jobs: JobRunner;
  readonly insights: Insights;
  readonly retention: ReturnType<typeof retentionSettings>;
  readonly subscriptions: SubscriptionWiring;
  readonly bot: BotService;
  readonly clock: Clock;
}): Promise<void> {
  const { jobs, clock } = parts;
  jobs.start();
  parts.insights.recorder?.start();
  await scheduleRetention(jobs, parts.retention, clock.now());
  await schedulePreviewSweep(jobs, clock.now());
  await parts.subscriptions.jobs.start();
  await parts.bot.current.runtime.start();
}

/**
 * Stops gracefully, in order: no more publishes followed nor previews, no more swaps, the turns and
 * jobs in hand drained, then each part closed. Always ends with `server stopped` logged.
 */
export async function stopServer(parts: {
  readonly config: Config;
  readonly logger: Logger;
  readonly host: RunningBot;
  readonly preview: { close(): Promise<void> };
  readonly jobs: JobRunner;
  readonly deps: AppDeps;
  readonly io: ChatServer;
  readonly subscriptions: SubscriptionWiring;
  readonly channels: Channels;
  readonly embeddings: { close(): Promise<void> } | undefined;
  readonly http: HttpServer;
  readonly cluster: Cluster | undefined;
  readonly insights: Insights;
  readonly store: OpenedStore;
  readonly mailer: ReturnType<typeof outbound>['mailer'];
}): Promise<void> {
  const { logger, host, http } = parts;
  host.close();
  await parts.preview.close().catch(() => undefined);
  try {
    await host.service.stopSwapping();
    const { jobs, deps, io } = parts;
    await drain({ graceMs: parts.config.SHUTDOWN_GRACE, logger, jobs, turns: deps.turns, io });
    await host.service.close();
    parts.subscriptions.jobs.close();
    parts.channels.close();
    await parts.embeddings?.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await parts.cluster?.close();
    await parts.insights.recorder?.close();
    await parts.store.close();
    parts.mailer?.close();
  } catch (error) {
    logger.error({ event: 'stop_failed', err: error }, 'a part of the server did not stop cleanly');
  } finally {
    logger.info({ event: 'stopped' }, 'server stopped');
  }
}
