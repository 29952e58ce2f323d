import type { Server as HttpServer } from 'node:http';
import type { AppDeps } from '../app/deps.ts';
import type { RunningBot } from '../bot/bot-host.ts';
import type { ReloadOutcome } from '../bot/bot-service.ts';
import { watchedFiles } from '../bot/load-bot.ts';
import type { ChatServer } from '../channels/webchat/socket-server.ts';
import type { Cluster } from '../cluster/cluster.ts';
import { CUT_SHORT_MS, drain, turnsEnded } from '../cluster/drain.ts';
import type { Config } from '../config.ts';
import type { IntegrationRuntime } from '../integrations/run-integration.ts';
import { schedulePreviewSweep } from '../jobs/handlers/preview-sweep.ts';
import { scheduleRetention, type retentionSettings } from '../jobs/handlers/retention.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';
import type { VersionsDeps } from '../studio-server/versions/versions-deps.ts';
import type { Channels } from './channels.ts';
import type { Insights } from './insights.ts';
import type { OpenedStore } from './open-store.ts';
import type { outbound } from './outbound.ts';
import type { BotInService } from './running-bot.ts';
import type { serverSecrets } from './server-secrets.ts';
import type { Studio } from './studio-server.ts';
import type { SubscriptionWiring } from './subscriptions.ts';

export interface RunningServer {
  /** Base URL the server answers on, e.g. http://127.0.0.1:3000. */
  readonly url: string;
  readonly store: Store;
  readonly io: ChatServer;
  readonly jobs: JobRunner;
  readonly functionKey: string;
  /** The studio: its address, the first owner's one-time setup link while no owner exists, and its stores. */
  readonly studio: { readonly url: string; readonly setupLink?: string; readonly stores: Studio };
  /** Integration steps and background datasets (the engine calls `integrations.run`). */
  readonly integrations: IntegrationRuntime;
  /**
   * Reads the definition file (and its step type modules) again and puts it in service. A
   * definition that fails any check is not used: the running one stays and every problem is
   * logged. Conversations carry on; a user resting on a step that is gone is moved (settings.recovery).
   */
  reload(): Promise<ReloadOutcome>;
  /** The definition file and step type modules the bot in service was read from. */
  readonly files: readonly string[];
  /** The bot's versions: what the studio's API publishes and saves through. */
  readonly versions: VersionsDeps;
  /** The studio's insights: the store they are read from, and the recorder turns report to (absent with `insights: false`). */
  readonly insights: Insights;
  /** Cluster mode (REDIS_URL): this node's id and what it shares through Redis; absent on a single node. */
  readonly cluster?: Cluster;
  /**
   * Stops gracefully: /readyz answers 503 at once, client events are no longer taken, turns,
   * sync integration calls and jobs in hand finish (up to SHUTDOWN_GRACE), then widgets are
   * disconnected so they reconnect to another node. Always ends with `server stopped` logged.
   */
  close(): Promise<void>;
}

/** Every part of a server, built and wired (start-server.ts): what starts once it listens, and what stops. */
export interface ServerParts {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly store: OpenedStore;
  readonly cluster: Cluster | undefined;
  readonly studio: Studio;
  readonly host: RunningBot;
  readonly versions: VersionsDeps;
  readonly insights: Insights;
  readonly embeddings: BotInService['embeddings'];
  readonly preview: { close(): Promise<void> };
  readonly jobs: JobRunner;
  readonly deps: AppDeps;
  readonly io: ChatServer;
  readonly subscriptions: SubscriptionWiring;
  readonly channels: Channels;
  readonly http: HttpServer;
  readonly mailer: ReturnType<typeof outbound>['mailer'];
  readonly retention: ReturnType<typeof retentionSettings>;
  readonly secrets: Awaited<ReturnType<typeof serverSecrets>>;
  /** Draining: /readyz answers 503 and client events are refused. The origins the server answers on. */
  readonly state: { draining: boolean; ownOrigins: string[] };
}

/**
 * Once the server listens: the job runner, the insights recorder, the recurring jobs and the bot's
 * runtime start, and `started` is logged. Answers the running server, which stops its parts in order.
 */
export async function runServer(
  parts: ServerParts,
  listened: { readonly url: string; readonly baseUrl: string },
): Promise<RunningServer> {
  const { jobs, clock, host, studio, cluster, store, logger } = parts;
  const bot = host.service;
  jobs.start();
  parts.insights.recorder?.start();
  await scheduleRetention(jobs, parts.retention, clock.now());
  await schedulePreviewSweep(jobs, clock.now());
  await parts.subscriptions.jobs.start();
  await bot.current.runtime.start();
  // No owner yet: a one-time link to create the first one, printed by the command line (never logged).
  const setupLink = await studio.firstOwnerLink();
  const { url, baseUrl } = listened;
  const current = bot.current;
  logger.info(
    {
      event: 'started',
      url,
      bot: current.definition.settings.id,
      ...(current.version ? { version: current.version.id } : {}),
      store: store.kind,
      ...(cluster ? { node: cluster.nodeId } : {}),
    },
    cluster ? 'server started (cluster mode)' : 'server started',
  );
  let closing: Promise<void> | undefined;
  return {
    url,
    store,
    io: parts.io,
    jobs,
    functionKey: parts.secrets.functionKey,
    studio: { url: `${baseUrl.replace(/\/$/, '')}/studio/`, ...(setupLink ? { setupLink } : {}), stores: studio },
    get integrations() {
      return bot.current.runtime;
    },
    get files() {
      return watchedFiles(bot.current);
    },
    reload: () => host.reload(),
    versions: parts.versions,
    insights: parts.insights,
    ...(cluster ? { cluster } : {}),
    close() {
      parts.state.draining = true;
      closing ??= stopServer(parts);
      return closing;
    },
  };
}

/**
 * Stops gracefully, in order: no more publishes followed nor previews, no more swaps, the turns and
 * jobs in hand drained, then each part closed. Always ends with `server stopped` logged.
 */
async function stopServer(parts: ServerParts): Promise<void> {
  const { logger, host, http } = parts;
  host.close();
  await parts.preview.close().catch(() => undefined);
  try {
    await host.service.stopSwapping();
    const { jobs, deps, io } = parts;
    await drain({ graceMs: parts.config.SHUTDOWN_GRACE, logger, jobs, turns: deps.turns, io });
    // Closing the runtime cuts short the calls still running; their turns end now (the failure is
    // logged, the user released), and must before the store and logger below go away.
    await host.service.close();
    await turnsEnded(deps.turns, Date.now() + CUT_SHORT_MS);
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
