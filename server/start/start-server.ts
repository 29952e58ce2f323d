import { mkdir } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import { hostname } from 'node:os';
import path from 'node:path';
import { Server } from 'socket.io';
import { currentRequestId } from '../api/request-id.ts';
import { createMetrics } from '../api/metrics.ts';
import { createLinkSigner } from '../api/url-tracker.ts';
import { PublicBases, linkBaseWarning, listenFallback, proxiedWarning, publicOrigin } from '../api/public-origin.ts';
import type { AppDeps } from '../app/deps.ts';
import { KeyedQueue } from '../app/keyed-queue.ts';
import { LeasedTurns } from '../app/turn-lease.ts';
import { CHANNEL_ID as WEBCHAT, socketDelivery, type ChatServer } from '../channels/webchat/socket-server.ts';
import { deliveryByChannel } from '../channels/delivery-by-channel.ts';
import { restDelivery, type RestDelivery } from '../channels/rest/rest-delivery.ts';
import { warnRefusedCallbacks } from '../channels/rest/callback-url-check.ts';
import { SafeHttpClient } from '../integrations/http/safe-http-client.ts';
import type { Config } from '../config.ts';
import { createLogger } from '../logger.ts';
import { packageVersion, projectRoot } from '../paths.ts';
import { systemClock, type Clock } from '../ports/clock.ts';
import type { Delivery } from '../ports/delivery.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { retentionSettings, scheduleRetention } from '../jobs/handlers/retention.ts';
import type { IntegrationRuntime } from '../integrations/run-integration.ts';
import { prepareBot, readBot, watchedFiles, type BotSource } from '../load-bot.ts';
import { formatProblem } from '../definition/problem.ts';
import { missesRoutes } from '../studio/http/misses-routes.ts';
import { openEmbeddings } from '../nlp/embeddings/open-embeddings.ts';
import { throttledWarning } from '../nlp/embeddings/throttled-warning.ts';
import { persistentSecret } from '../secrets.ts';
import { openMongoStore, type MongoStore, type StoreCommand } from '../stores/mongo/mongo-store.ts';
import { openSqliteStore, type SqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { openEventRooms } from '../stores/event-rooms.ts';
import type { Cluster } from '../cluster/cluster.ts';
import { drain } from '../cluster/drain.ts';
import { botService, type ReloadOutcome } from './bot-service.ts';
import { openBotTests, sweepPreviews, wirePreview } from './studio-preview.ts';
import { schedulePreviewSweep } from '../jobs/handlers/preview-sweep.ts';
import { runBotTests } from '../studio/preview/bot-tests.ts';
import { httpSide } from './http-side.ts';
import { registerJobHandlers } from './job-handlers.ts';
import { wireConnectors } from './connectors.ts';
import { openInsights, studioExportRoutes, studioInsightsRoutes, type Insights } from './insights.ts';
import { outbound } from './outbound.ts';
import { openStudio, type Studio } from './studio.ts';
import { openVersionRooms, publishedAtStart, versionsInService } from './studio-versions.ts';
import { wireSubscriptions, type SubscriptionWiring } from './subscriptions.ts';
import type { VersionsDeps } from '../studio/versions/versions-deps.ts';
import { versionsRoutes } from '../studio/http/versions-routes.ts';
import { designerRoutes } from '../studio/designer/designer-routes.ts';
import { designerDeps, openPresence } from './studio-designer.ts';
import { wireWebchat } from './webchat.ts';

export type { ReloadOutcome } from './bot-service.ts';

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
  const store = await openStore(config, dataDir, options.onStoreCommand);
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
  /** The store and, for the rooms with ports of their own (server/start/studio.ts), its adapter-level handle. */
  readonly store: SqliteStore | MongoStore;
  readonly cluster: Cluster | undefined;
  readonly studio: Studio;
  /** The base URL the studio's setup links are made of: set once the server listens. */
  readonly urls: { base: string };
}

/** Wires the parts together, each built in a module of its own concern; this function only orders them. */
async function assemble({
  config,
  options,
  logger,
  source,
  dataDir,
  store,
  cluster,
  studio,
  urls,
}: Opened): Promise<RunningServer> {
  let draining = false;
  const functionKey = await persistentSecret(dataDir, 'function-key', config.BOT_FUNCTION_KEY);
  if (functionKey.generated) {
    // Shown once, on the start that generated it, and never logged afterwards.
    process.stderr.write(
      `Generated a function key for the management API (kept in ${dataDir}): ${functionKey.value}\n`,
    );
  }
  const sessionSecret = await persistentSecret(dataDir, 'session', config.SESSION_SECRET);
  const clock = options.clock ?? systemClock;
  // The environment, then the studio's secrets (a set variable wins): what the definition's named variables read.
  const env = studio.env;
  // The bot that runs is the published version; the file seeds and imports versions (README, "One source of truth").
  const botTests = openBotTests(store);
  const versionsSetup = {
    rooms: await openVersionRooms(store),
    audit: studio.audit,
    clock,
    logger,
    file: config.BOT_DEFINITION,
    env,
    runTests: (checked: Parameters<typeof runBotTests>[1]) => runBotTests(botTests, checked),
  };
  const published = await publishedAtStart(versionsSetup, source);
  const { mailer, sms } = outbound(config, published.definition, logger);
  let baseUrl = config.PUBLIC_URL ?? '';
  // Links the bot sends are built from the public name: PUBLIC_URL, else what each visitor connected by (public-origin.ts).
  const publicBases = new PublicBases({
    configured: config.PUBLIC_URL,
    fallback: () => baseUrl,
    onProxied: (origin) =>
      logger.warn({ event: 'public_url_unset', origin, setting: 'PUBLIC_URL' }, proxiedWarning(origin, baseUrl)),
  });
  const links = createLinkSigner(
    sessionSecret.value,
    (userId) => publicBases.baseFor(userId),
    config.SESSION_SECRET_PREVIOUS,
  );
  const metrics = createMetrics({
    version: packageVersion(projectRoot()),
    store: config.MONGODB_URL ? 'mongo' : 'sqlite',
  });
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
  const eventRooms = openEventRooms(store);
  const runtimeDeps = {
    store,
    clock,
    logger,
    // jobs is built below; async steps only run once the server is up.
    scheduler: {
      schedule: (job: Parameters<JobRunner['schedule']>[0]) => jobs.schedule(job),
      cancel: (id: string) => jobs.cancel(id),
    },
    env,
    allowedHosts: config.INTEGRATION_ALLOWED_HOSTS,
    metrics: metrics.port,
    ...(cluster ? { datasetCluster: cluster.datasets } : {}),
    // Read when a call is made: deps (and the recorder in it) is built below.
    insights: () => deps.insights,
    usage: eventRooms.usage,
  };
  // Sentence embeddings (EMBEDDINGS): a local model that is missing stops start-up here, naming what to do.
  // Requests to an embeddings endpoint leave through the integrations' guarded client: INTEGRATION_ALLOWED_HOSTS applies.
  const embeddings = await openEmbeddings(config, {
    dataDir,
    http: () => new SafeHttpClient({ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS }),
    warn: (message) => logger.warn({ event: 'embedding_cache' }, message),
  });
  const understanding = {
    embeddings,
    warn: throttledWarning((message) => logger.warn({ event: 'embeddings_unavailable' }, message)),
  };
  // Integration settings (services, background datasets) and every integration step are checked here:
  // a bad field or a missing secret stops start-up naming its definition path. The models are trained here too.
  let first;
  try {
    first = await prepareBot(published, runtimeDeps, understanding);
  } catch (error) {
    await embeddings?.close();
    throw error;
  }
  if (embeddings)
    logger.info(
      { event: 'embeddings', model: embeddings.modelId, encoded: embeddings.encoded },
      `sentence embeddings from ${embeddings.modelId}: ${embeddings.encoded} texts encoded at start, the rest from the cache`,
    );
  const bot = botService(first, runtimeDeps, logger, understanding);
  const versions = versionsInService(versionsSetup, bot, cluster);
  // A secret changed in the studio: the version in service read again with the new env, through the one swap path.
  studio.attach({
    definition: () => bot.current.definition,
    reprepare: (reason) => versions.reprepare(reason),
  });
  const designer = designerDeps({ bot, presence: await openPresence(store), clock, baseUrl: () => baseUrl });
  // The generic bot REST channels: each with its delivery; users are routed to theirs by channelId.
  const restDeliveries = new Map<string, RestDelivery>(
    config.REST_CHANNELS.map((channel) => [
      channel.name,
      restDelivery(channel, { schedule: (job) => jobs.schedule(job), cancel: (id) => jobs.cancel(id) }, logger, () =>
        clock.now(),
      ),
    ]),
  );
  // The vendors' channels (Telegram, …): each a connector over the one connector core.
  const connectors = await wireConnectors(config, store, logger, () => clock.now());
  const callbackClient = new SafeHttpClient({ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS });
  // A callbackUrl those rules refuse is said at start-up (in the background: a name may take a moment to resolve).
  void warnRefusedCallbacks(config.REST_CHANNELS, (url) => callbackClient.refusal(url), logger);
  let delivery: ReturnType<typeof deliveryByChannel> | undefined;
  const http = createServer(
    httpSide({
      config,
      root: projectRoot(),
      store,
      logger,
      bot,
      functionKey: functionKey.value,
      metrics,
      cluster,
      restDeliveries,
      // Built with the job runner below; requests only arrive after listen().
      ...(connectors ? { webhooks: { handler: (request) => webhooks!(request), secrets: connectors.secrets } } : {}),
      deps: () => deps,
      remember: (userId, channelId) => delivery?.remember(userId, channelId),
      baseUrl: () => baseUrl,
      draining: () => draining,
      surfaces: studio.surfaces([
        versionsRoutes(() => versions.deps),
        designerRoutes(designer),
        studioInsightsRoutes({
          insights,
          store,
          audit: studio.audit,
          clock,
          windowMs: config.INSIGHTS_WINDOW,
          bot: () => bot.current,
          versions: () => versions.deps.room,
          deps: () => deps,
        }),
        studioExportRoutes({ store, logger, bot: () => bot.current }),
        missesRoutes({
          store,
          versions: () => versions.deps,
          now: () => clock.now(),
          embeddings: embeddings ?? undefined,
          rowCap: config.INSIGHTS_MISSES_ROWS,
          groupedAtMost: config.INSIGHTS_MISSES_GROUPED,
        }),
      ]),
      audit: studio.audit,
      // Built below with the job runner; requests only arrive after listen().
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
  const webhooks = connectors?.webhooks(jobs);
  const subscriptions: SubscriptionWiring = wireSubscriptions({
    config,
    store,
    subscriptions: eventRooms.subscriptions,
    jobs,
    clock,
    logger,
    callbackClient,
    botId: published.definition.settings.id,
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
    publicBases.remember(socket.data.userId, publicOrigin(socket.request, config.TRUST_PROXY));
    metrics.socketConnected();
    socket.on('disconnect', (reason) => metrics.socketDisconnected(reason));
  });
  const current = bot.current;
  const deps: { -readonly [K in keyof AppDeps]: AppDeps[K] } = {
    definition: current.definition,
    moves: current.moves ?? [],
    store,
    clock,
    delivery: (delivery = deliveryByChannel(
      store,
      {
        channels: new Map<string, Delivery>([...restDeliveries, ...(connectors?.deliveries ?? [])]),
        fallback: socketDelivery(io, cluster?.presence),
      },
      logger,
    )),
    logger,
    scheduler: jobs,
    // In a cluster one user's turns also wait on the user's lease in Redis, so a trigger on one node and a
    // message on another run one after the other; the store's version check stays the guarantee.
    turns: cluster
      ? new LeasedTurns(cluster.turnLeases, { owner: `${hostname()}:${process.pid}`, logger })
      : new KeyedQueue(),
    metrics: metrics.port,
    classifier: current.classifier,
    faq: current.faq,
    mailer,
    sms,
    links,
    integrations: current.caller,
    integrationCallsPerMinute: config.INTEGRATION_USER_RATE_LIMIT,
    turnDeadlineMs: config.TURN_DEADLINE,
    ...(insights.recorder ? { insights: insights.recorder } : {}),
    events: subscriptions.jobs.sink,
    usage: eventRooms.usage,
  };
  // Everything that reads the definition reads it through deps or bot: a swap changes them together.
  bot.onSwap((next) =>
    Object.assign(deps, {
      definition: next.definition,
      moves: next.moves ?? [],
      classifier: next.classifier,
      faq: next.faq,
      integrations: next.caller,
    }),
  );
  const retention = retentionSettings(config);
  registerJobHandlers(jobs, deps, bot, config, retention, callbackClient, studio.rooms.audit, insights.room);
  connectors?.register(jobs, () => deps);
  metrics.countConnectedUsers(() => new Set([...io.of('/').sockets.values()].map((socket) => socket.data.userId)).size);
  let ownOrigins: string[] = [];
  wireWebchat(io, deps, {
    config,
    sessionSecret: sessionSecret.value,
    cluster,
    ownOrigins: () => ownOrigins,
    draining: () => draining,
  });
  // The studio's preview: its own namespace, signed in by the studio session (server/studio/preview/).
  const preview = wirePreview(io, {
    store,
    studio,
    versions: () => versions.deps,
    tests: botTests,
    file: config.BOT_DEFINITION,
    clock,
    logger,
    allowedHosts: config.INTEGRATION_ALLOWED_HOSTS,
    ...(mailer ? { mailer } : {}),
    ...(sms ? { sms } : {}),
  });
  await sweepPreviews(jobs, { store, app: deps, preview, alone: !cluster });
  // A connected web chat user's channel is known: their deliveries need no lookup.
  if (restDeliveries.size > 0 || connectors)
    io.on('connection', (socket) => delivery?.remember(socket.data.userId, WEBCHAT));

  await listen(http, config.PORT, config.HOST);
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  // Never a link to 0.0.0.0: the "every interface" address becomes localhost, and start-up says to set PUBLIC_URL.
  baseUrl = config.PUBLIC_URL ?? listenFallback(url);
  urls.base = baseUrl;
  ownOrigins = [new URL(url).origin, new URL(baseUrl).origin];
  const linkWarning = linkBaseWarning({ publicUrl: config.PUBLIC_URL, host: config.HOST, fallback: baseUrl });
  if (linkWarning) logger.warn({ event: 'public_url_unset', host: config.HOST, setting: 'PUBLIC_URL' }, linkWarning);
  jobs.start();
  insights.recorder?.start();
  await scheduleRetention(jobs, retention, clock.now());
  await schedulePreviewSweep(jobs, clock.now());
  await subscriptions.jobs.start();
  await bot.current.runtime.start();
  // No owner yet: a one-time link to create the first one, printed by the command line (never logged).
  const setupLink = await studio.firstOwnerLink();
  logger.info(
    {
      event: 'started',
      url,
      bot: current.definition.settings.id,
      ...(current.version ? { version: current.version.id } : {}),
      store: config.MONGODB_URL ? 'mongo' : 'sqlite',
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
    functionKey: functionKey.value,
    studio: { url: `${baseUrl.replace(/\/$/, '')}/studio/`, ...(setupLink ? { setupLink } : {}), rooms: studio },
    get integrations() {
      return bot.current.runtime;
    },
    get files() {
      return watchedFiles(bot.current);
    },
    reload: () => versions.reload(),
    versions: versions.deps,
    insights,
    ...(cluster ? { cluster } : {}),
    close() {
      closing ??= (async () => {
        draining = true;
        versions.close();
        await preview.close().catch(() => undefined);
        try {
          await bot.stopSwapping();
          await drain({ graceMs: config.SHUTDOWN_GRACE, logger, jobs, turns: deps.turns, io });
          await bot.close();
          subscriptions.jobs.close();
          connectors?.close();
          await embeddings?.close();
          callbackClient.close();
          await new Promise<void>((resolve) => http.close(() => resolve()));
          await cluster?.close();
          await insights.recorder?.close();
          await store.close();
          mailer?.close();
        } catch (error) {
          logger.error({ event: 'stop_failed', err: error }, 'a part of the server did not stop cleanly');
        } finally {
          logger.info({ event: 'stopped' }, 'server stopped');
        }
      })();
      return closing;
    },
  };
}

async function openStore(
  config: Config,
  dataDir: string,
  onCommand?: (command: StoreCommand) => void,
): Promise<SqliteStore | MongoStore> {
  // Without REDIS_URL this is the one process writing the database: its locks stay in memory (MongoStoreOptions.shared).
  if (config.MONGODB_URL)
    return openMongoStore({
      url: config.MONGODB_URL,
      shared: Boolean(config.REDIS_URL),
      ...(onCommand ? { onCommand } : {}),
    });
  // A fresh checkout has no data folder yet; the embedded store makes its own.
  // Personal data and secrets live here: a new folder is the server user's alone.
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  return openSqliteStore({ file: path.join(dataDir, 'chatbot.sqlite') });
}

function listen(http: HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
}
