import { createServer } from 'node:http';
import path from 'node:path';
import { currentRequestId } from '../api/request-id.ts';
import { createMetrics } from '../api/metrics.ts';
import { readBot, type BotSource } from '../bot/load-bot.ts';
import type { Config } from '../config.ts';
import { formatProblem } from '../definition/problem.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { retentionSettings } from '../jobs/handlers/retention.ts';
import { createLogger } from '../logger.ts';
import { packageVersion, projectRoot } from '../paths.ts';
import { systemClock, type Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { StoreCommand } from '../stores/mongo/mongo-store.ts';
import type { Cluster } from '../cluster/cluster.ts';
import { liveAppDeps, turnQueue } from './app-deps.ts';
import { socketServer, watchSockets } from './sockets.ts';
import { openChannels } from './channels.ts';
import { httpSide } from './http-side.ts';
import { registerJobHandlers } from './job-handlers.ts';
import { openInsights } from './insights.ts';
import { listenAt } from './listen.ts';
import { setTelegramWebhookAtStart } from '../channels/telegram/telegram-webhook-command.ts';
import { openStore, storeParts, type OpenedStore } from './open-store.ts';
import { outbound } from './outbound.ts';
import { publicLinks } from './public-links.ts';
import { openRunningBot } from './running-bot.ts';
import { serverSecrets } from './server-secrets.ts';
import { runServer, type RunningServer } from './running-server.ts';
import { openStudio, type Studio } from './studio-server.ts';
import { sweepPreviews, wirePreview } from './studio-preview.ts';
import { studioRoutes } from './studio-routes.ts';
import { wireSubscriptions } from './subscriptions.ts';
import { wireWebchat } from './webchat.ts';

import type { ReloadOutcome } from '../bot/bot-service.ts';

export type { ReloadOutcome };

export type { RunningServer } from './running-server.ts';

export interface StartOptions {
  readonly clock?: Clock;
  /** Where log lines go; stdout when omitted. */
  readonly logDestination?: NodeJS.WritableStream;
  /** Where the definition's named variables (a wait step's durationEnv, integration secrets) are read; process.env when omitted. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** false: keep nothing for the studio's insights (bench/turn-cpu.ts measures a turn without them). Default true. */
  readonly insights?: boolean;
  /** Each command the Mongo store sends (command monitoring): the benches count a turn's round trips with it. */
  readonly onStoreCommand?: (command: StoreCommand) => void;
}

/** The composition root: the only place that knows which store, clock and channel are real. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config.LOG_LEVEL, options.logDestination, () => {
    const requestId = currentRequestId();
    return requestId ? { requestId } : {};
  });
  const dataDir = path.resolve(config.DATA_DIR);
  const store = await openStore(config, options.onStoreCommand ? { onCommand: options.onStoreCommand } : {});
  let cluster: Cluster | undefined;
  try {
    // Loaded only in cluster mode: the Redis client and adapter are a tenth of a single node's start-up CPU.
    cluster = config.REDIS_URL
      ? await (await import('../cluster/cluster.ts')).openCluster({ url: config.REDIS_URL, logger })
      : undefined;
    // The studio's stores open before the bot is read: its secrets are part of the env the definition reads.
    const urls = { base: config.PUBLIC_URL ?? '' };
    const studio = await openStudio({
      root: projectRoot(),
      config,
      store,
      logger,
      clock: options.clock ?? systemClock,
      ...(cluster
        ? { limiter: (name: string, limit: number, windowMs: number) => cluster!.limiter(name, limit, windowMs) }
        : {}),
      baseUrl: () => urls.base,
      origins: () => (urls.base ? [new URL(urls.base).origin] : []),
      dataDir,
      environment: options.env ?? process.env,
      ...(cluster ? { signals: cluster.signals, nodeId: cluster.nodeId } : {}),
    });
    // The same checks as `chatbot check`: any error stops start-up; warnings are logged.
    const source = await readBot(config.BOT_DEFINITION, studio.env);
    for (const problem of source.warnings)
      logger.warn({ event: 'definition_warning', path: problem.path }, formatProblem(problem));
    return await assemble({ config, options, logger, source, dataDir, store, cluster, studio, urls });
  } catch (error) {
    // A later start-up failure (a bad definition, a bad integration block, a taken port) must not leave the store open.
    await cluster?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
}

interface Opened {
  readonly config: Config;
  readonly options: StartOptions;
  readonly logger: Logger;
  readonly source: BotSource;
  readonly dataDir: string;
  /** The store and, for the stores with ports of their own (server/start/open-store.ts), its adapter-level handle. */
  readonly store: OpenedStore;
  readonly cluster: Cluster | undefined;
  readonly studio: Studio;
  /** The base URL links are made of: PUBLIC_URL, else set once the server listens. */
  readonly urls: { base: string };
}

/**
 * Wires the parts together, each built by a factory of its own concern (server/start/); this
 * function only orders them. Parts built later are read through closures: no request, turn or job
 * arrives before listen().
 */
async function assemble(opened: Opened): Promise<RunningServer> {
  const { config, options, logger, dataDir, store, cluster, studio, urls } = opened;
  const clock = options.clock ?? systemClock;
  const state = { draining: false, ownOrigins: [] as string[] };
  const secrets = await serverSecrets(dataDir, config);
  const metrics = createMetrics({ version: packageVersion(projectRoot()), store: store.kind });
  // The studio's insights: counters and conversation summaries kept with each turn (server/app/insights/).
  const insights = await openInsights(store, {
    ...{ enabled: options.insights !== false, logger, clock, windowMs: config.INSIGHTS_WINDOW },
    ...{ searchBudget: config.INSIGHTS_SEARCH_BUDGET, version: () => bot.current.version?.id ?? 'unversioned' },
  });
  // Event subscriptions and step types' daily counters, on the store's own connection.
  const eventStores = storeParts(store).events();
  const running = await openRunningBot({
    ...{ config, store, studio, cluster, clock, logger, dataDir, source: opened.source, metrics: metrics.port },
    // Built below: async steps and integration calls only run once the server is up.
    ...{ usage: eventStores.usage, jobs: () => jobs, insights: () => deps.insights },
  });
  const { host, versions, embeddings } = running;
  const bot = host.service;
  const { mailer, sms } = outbound(config, bot.current.definition, logger);
  const publicBases = publicLinks(config, secrets.session, () => urls.base, logger);
  const channels = await openChannels(config, store, {
    ...{ logger, clock, cluster, jobs: () => jobs, studio },
    definition: () => bot.current.definition,
  });
  const routes = await studioRoutes({
    ...{ config, store, studio, bot, versions, insights, embeddings, clock, logger, connectors: channels.connectors },
    ...{ baseUrl: () => urls.base, deps: () => deps },
  });
  const http = createServer(
    httpSide({
      ...{ config, root: projectRoot(), store, logger, bot, functionKey: secrets.functionKey, metrics, cluster },
      restDeliveries: channels.restDeliveries,
      // Built with the job runner below; requests only arrive after listen().
      webhooks: { handler: (request) => webhooks(request), secrets: channels.connectors.secrets },
      deps: () => deps,
      remember: channels.remember,
      baseUrl: () => urls.base,
      draining: () => state.draining,
      surfaces: studio.surfaces(routes),
      audit: studio.audit,
      subscriptions: () => subscriptions.deps,
    }),
  );
  const io = socketServer(http, cluster);
  const jobs = new JobRunner({ store, clock, logger, leaseMs: config.JOB_LEASE_SECONDS * 1000, metrics: metrics.port });
  const webhooks = channels.connectors.webhooks(jobs);
  const subscriptions = wireSubscriptions({
    ...{ config, store, subscriptions: eventStores.subscriptions, jobs, clock, logger },
    callbackClient: channels.callbackClient,
    botId: bot.current.definition.settings.id,
  });
  watchSockets(io, { metrics, bases: publicBases.bases, store, bot, clock, config });
  const deps = liveAppDeps(bot, {
    ...{ store, clock, logger, scheduler: jobs, metrics: metrics.port, mailer, sms, links: publicBases.links },
    delivery: channels.delivery(io),
    turns: turnQueue(cluster, logger),
    integrationCallsPerMinute: config.INTEGRATION_USER_RATE_LIMIT,
    turnDeadlineMs: config.TURN_DEADLINE,
    ...(insights.recorder ? { insights: insights.recorder } : {}),
    events: subscriptions.jobs.sink,
    usage: eventStores.usage,
    identityLinks: await storeParts(store).identityLinks(),
    linkByPhone: config.BOT_IDENTITY_LINK_PHONE === true,
  });
  const retention = retentionSettings(config);
  const { callbackClient } = channels;
  registerJobHandlers(jobs, deps, bot, config, retention, callbackClient, studio.stores.audit, insights.store);
  channels.connectors.register(jobs, () => deps);
  wireWebchat(io, deps, {
    ...{ config, sessionSecret: secrets.session, cluster },
    ownOrigins: () => state.ownOrigins,
    draining: () => state.draining,
  });
  // The studio's preview: its own namespace, signed in by the studio session (server/studio-server/preview/).
  const preview = wirePreview(io, {
    ...{ store, studio, versions: () => versions, tests: running.tests, file: config.BOT_DEFINITION, clock, logger },
    ...{ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS, mailer, sms },
  });
  await sweepPreviews(jobs, { previews: storeParts(store).previewUsers(), app: deps, preview, alone: !cluster });

  const { url, baseUrl } = await listenAt(http, config, logger);
  urls.base = baseUrl;
  // Once listening: Telegram may post at once. Not awaited: a slow Bot API does not hold the start.
  if (config.TELEGRAM_SET_WEBHOOK) void setTelegramWebhookAtStart(config, logger);
  state.ownOrigins = [new URL(url).origin, new URL(baseUrl).origin];
  const parts = {
    ...{ config, logger, clock, store, cluster, studio, host, versions, insights, embeddings },
    ...{ preview, jobs, deps, io, subscriptions, channels, http, mailer, retention, secrets, state },
  };
  return runServer(parts, { url, baseUrl });
}
