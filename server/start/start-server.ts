import { createServer } from 'node:http';
import { hostname } from 'node:os';
import path from 'node:path';
import { Server } from 'socket.io';
import { currentRequestId } from '../api/request-id.ts';
import { createMetrics } from '../api/metrics.ts';
import { publicOrigin } from '../api/public-origin.ts';
import { KeyedQueue } from '../app/keyed-queue.ts';
import { LeasedTurns } from '../app/turn-lease.ts';
import { readBot, watchedFiles, type BotSource } from '../bot/load-bot.ts';
import type { ChatServer } from '../channels/webchat/socket-server.ts';
import type { Config } from '../config.ts';
import { formatProblem } from '../definition/problem.ts';
import type { IntegrationRuntime } from '../integrations/run-integration.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { retentionSettings } from '../jobs/handlers/retention.ts';
import { createLogger } from '../logger.ts';
import { packageVersion, projectRoot } from '../paths.ts';
import { systemClock, type Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';
import type { StoreCommand } from '../stores/mongo/mongo-store.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { VersionsDeps } from '../studio/versions/versions-deps.ts';
import { liveAppDeps } from './app-deps.ts';
import { openChannels } from './channels.ts';
import { httpSide } from './http-side.ts';
import { registerJobHandlers } from './job-handlers.ts';
import { openInsights, type Insights } from './insights.ts';
import { listenAt } from './listen.ts';
import { openStore, storeRooms, type OpenedStore } from './open-store.ts';
import { outbound } from './outbound.ts';
import { publicLinks } from './public-links.ts';
import { openRunningBot } from './running-bot.ts';
import { serverSecrets } from './server-secrets.ts';
import { startRunning, stopServer } from './run-and-stop.ts';
import { openStudio, type Studio } from './studio.ts';
import { sweepPreviews, wirePreview } from './studio-preview.ts';
import { studioRoutes } from './studio-routes.ts';
import { wireSubscriptions } from './subscriptions.ts';
import { wireWebchat } from './webchat.ts';

import type { ReloadOutcome } from '../bot/bot-service.ts';

export type { ReloadOutcome };

export interface RunningServer {
  /** Base URL the server answers on, e.g. http://127.0.0.1:3000. */
  readonly url: string;
  readonly store: Store;
  readonly io: ChatServer;
  readonly jobs: JobRunner;
  readonly functionKey: string;
  /** The studio: its address, the first owner's one-time setup link while no owner exists, and its rooms. */
  readonly studio: { readonly url: string; readonly setupLink?: string; readonly rooms: Studio };
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
  /** The studio's insights: the room they are read from, and the recorder turns report to (absent with `insights: false`). */
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
    // The studio's rooms open before the bot is read: its secrets are part of the env the definition reads.
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
  /** The store and, for the rooms with ports of their own (server/start/open-store.ts), its adapter-level handle. */
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
    enabled: options.insights !== false,
    logger,
    clock,
    windowMs: config.INSIGHTS_WINDOW,
    searchBudget: config.INSIGHTS_SEARCH_BUDGET,
    version: () => bot.current.version?.id ?? 'unversioned',
  });
  // Event subscriptions and step types' daily counters, on the store's own connection.
  const eventRooms = storeRooms(store).events();
  const running = await openRunningBot({
    ...{ config, store, studio, cluster, clock, logger, dataDir, source: opened.source },
    runtimeDeps: {
      ...{ store, clock, logger, env: studio.env, allowedHosts: config.INTEGRATION_ALLOWED_HOSTS },
      // jobs is built below; async steps only run once the server is up.
      scheduler: { schedule: (job) => jobs.schedule(job), cancel: (id) => jobs.cancel(id) },
      metrics: metrics.port,
      ...(cluster ? { datasetCluster: cluster.datasets } : {}),
      // Read when a call is made: deps (and the recorder in it) is built below.
      insights: () => deps.insights,
      usage: eventRooms.usage,
    },
  });
  const { host, versions, embeddings } = running;
  const bot = host.service;
  const { mailer, sms } = outbound(config, bot.current.definition, logger);
  const publicBases = publicLinks(config, secrets.session, () => urls.base, logger);
  const channels = await openChannels(config, store, { logger, clock, cluster, jobs: () => jobs });
  const routes = await studioRoutes({
    config,
    store,
    studio,
    bot,
    versions,
    insights,
    embeddings,
    clock,
    logger,
    baseUrl: () => urls.base,
    deps: () => deps,
  });
  const http = createServer(
    httpSide({
      ...{ config, root: projectRoot(), store, logger, bot, functionKey: secrets.functionKey, metrics, cluster },
      restDeliveries: channels.restDeliveries,
      // Built with the job runner below; requests only arrive after listen().
      ...(channels.connectors
        ? { webhooks: { handler: (request) => webhooks!(request), secrets: channels.connectors.secrets } }
        : {}),
      deps: () => deps,
      remember: channels.remember,
      baseUrl: () => urls.base,
      draining: () => state.draining,
      surfaces: studio.surfaces(routes),
      audit: studio.audit,
      subscriptions: () => subscriptions.deps,
    }),
  );
  const io: ChatServer = new Server(http, {
    // CORS lets every page read the answer, so a refused origin learns why (attachWebchat's
    // checkOrigin refuses it with a code); it grants nothing, as no cookie is ever involved.
    cors: { origin: true, credentials: false },
    maxHttpBufferSize: 64 * 1024,
    // Cluster mode: rooms span every node, so a turn on any node reaches the user's widgets on all.
    ...(cluster ? { adapter: cluster.adapter } : {}),
  });
  const jobs = new JobRunner({ store, clock, logger, leaseMs: config.JOB_LEASE_SECONDS * 1000, metrics: metrics.port });
  const webhooks = channels.connectors?.webhooks(jobs);
  const subscriptions = wireSubscriptions({
    ...{ config, store, subscriptions: eventRooms.subscriptions, jobs, clock, logger },
    callbackClient: channels.callbackClient,
    botId: bot.current.definition.settings.id,
  });
  metrics.watch({
    dueJobs: () => store.dueJobs(clock.now()),
    datasets: async () =>
      Promise.all(
        bot.current.runtime.datasets
          .names()
          .map(async (name) => ({ name, updatedAt: (await store.datasetInfo(name))?.updatedAt ?? null })),
      ),
    now: () => clock.now(),
  });
  io.on('connection', (socket) => {
    // Before the channel's own handler, which may already send the greeting's links.
    publicBases.bases.remember(socket.data.userId, publicOrigin(socket.request, config.TRUST_PROXY));
    metrics.socketConnected();
    socket.on('disconnect', (reason) => metrics.socketDisconnected(reason));
  });
  const deps = liveAppDeps(bot, {
    ...{ store, clock, logger, scheduler: jobs, metrics: metrics.port, mailer, sms, links: publicBases.links },
    delivery: channels.delivery(io),
    // In a cluster one user's turns also wait on the user's lease in Redis, so a trigger on one node and a
    // message on another run one after the other; the store's version check stays the guarantee.
    turns: cluster
      ? new LeasedTurns(cluster.turnLeases, { owner: `${hostname()}:${process.pid}`, logger })
      : new KeyedQueue(),
    integrationCallsPerMinute: config.INTEGRATION_USER_RATE_LIMIT,
    turnDeadlineMs: config.TURN_DEADLINE,
    ...(insights.recorder ? { insights: insights.recorder } : {}),
    events: subscriptions.jobs.sink,
    usage: eventRooms.usage,
  });
  const retention = retentionSettings(config);
  const { callbackClient } = channels;
  registerJobHandlers(jobs, deps, bot, config, retention, callbackClient, studio.rooms.audit, insights.room);
  channels.connectors?.register(jobs, () => deps);
  metrics.countConnectedUsers(() => new Set([...io.of('/').sockets.values()].map((socket) => socket.data.userId)).size);
  wireWebchat(io, deps, {
    ...{ config, sessionSecret: secrets.session, cluster },
    ownOrigins: () => state.ownOrigins,
    draining: () => state.draining,
  });
  // The studio's preview: its own namespace, signed in by the studio session (server/studio/preview/).
  const preview = wirePreview(io, {
    ...{ store, studio, versions: () => versions, tests: running.tests, file: config.BOT_DEFINITION, clock, logger },
    allowedHosts: config.INTEGRATION_ALLOWED_HOSTS,
    ...(mailer ? { mailer } : {}),
    ...(sms ? { sms } : {}),
  });
  const previews = storeRooms(store).previewUsers();
  await sweepPreviews(jobs, { previews, app: deps, preview, alone: !cluster });

  const { url, baseUrl } = await listenAt(http, config, logger);
  urls.base = baseUrl;
  state.ownOrigins = [new URL(url).origin, new URL(baseUrl).origin];
  await startRunning({ jobs, insights, retention, subscriptions, bot, clock });
  // No owner yet: a one-time link to create the first one, printed by the command line (never logged).
  const setupLink = await studio.firstOwnerLink();
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
    io,
    jobs,
    functionKey: secrets.functionKey,
    studio: { url: `${baseUrl.replace(/\/$/, '')}/studio/`, ...(setupLink ? { setupLink } : {}), rooms: studio },
    get integrations() {
      return bot.current.runtime;
    },
    get files() {
      return watchedFiles(bot.current);
    },
    reload: () => host.reload(),
    versions,
    insights,
    ...(cluster ? { cluster } : {}),
    close() {
      state.draining = true;
      closing ??= stopServer({
        config,
        logger,
        host,
        preview,
        jobs,
        deps,
        io,
        subscriptions,
        channels,
        embeddings,
        http,
        cluster,
        insights,
        store,
        mailer,
      });
      return closing;
    },
  };
}
