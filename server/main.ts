import { unwatchFile, watchFile } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import { hostname } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Server } from 'socket.io';
import { clientIp } from './api/client-ip.ts';
import { createApp } from './api/create-app.ts';
import { currentRequestId } from './api/request-id.ts';
import { createMetrics } from './api/metrics.ts';
import { isLoopbackHost } from './api/metrics-access.ts';
import { TRIGGER_JOB } from './app/trigger-dialog.ts';
import { triggerJobHandler } from './jobs/handlers/trigger.ts';
import { TIMER_JOB_KIND, timerJobHandler } from './jobs/handlers/timer.ts';
import { RETENTION_JOB, retentionJobHandler, retentionSettings, scheduleRetention } from './jobs/handlers/retention.ts';
import { openTrackedLink } from './app/open-tracked-link.ts';
import { createLinkSigner } from './api/url-tracker.ts';
import { createSmtpMailer } from './mail/smtp-mailer.ts';
import { createHttpSmsSender } from './sms/http-sms-sender.ts';
import type { AppDeps } from './app/deps.ts';
import { KeyedQueue } from './app/keyed-queue.ts';
import { LeasedTurns } from './app/turn-lease.ts';
import { PENDING_JOB_KIND } from './app/answer-pending.ts';
import { pendingTurnJobHandler } from './jobs/handlers/pending-turn.ts';
import { CHANNEL_ID as WEBCHAT, attachWebchat, socketDelivery, type ChatServer } from './channels/webchat/socket-server.ts';
import { deliveryByChannel } from './channels/delivery-by-channel.ts';
import { CALLBACK_JOB, callbackJobHandler } from './channels/rest/callback-job.ts';
import { restDelivery, type RestDelivery } from './channels/rest/rest-delivery.ts';
import { restEndpoint } from './channels/rest/rest-endpoint.ts';
import { SafeHttpClient } from './integrations/http/safe-http-client.ts';
import { originPolicy } from './channels/webchat/origin-policy.ts';
import { SessionTokens } from './channels/webchat/session-tokens.ts';
import { ConfigError, DEMO_BOT_DEFINITION, readConfig, type Config } from './config.ts';
import { editorSchema } from './cli/editor-schema.ts';
import { SCHEMA_PATH } from './definition/json-schema.ts';
import { DefinitionError } from './definition/load.ts';
import { formatProblem } from './definition/problem.ts';
import { createLogger } from './logger.ts';
import { projectRoot } from './paths.ts';
import { systemClock, type Clock } from './ports/clock.ts';
import type { Store } from './ports/store.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { integrationJobHandler } from './jobs/handlers/integration.ts';
import { INTEGRATION_JOB_KIND, IntegrationRuntime } from './integrations/run-integration.ts';
import { StepTypeModuleError } from './integrations/step-types/load-modules.ts';
import { currentDatasets, prepareBot, readBot, watchedFiles, type BotSource, type PreparedBot } from './load-bot.ts';
import { openEmbeddings } from './nlp/embeddings/open-embeddings.ts';
import { throttledWarning } from './nlp/embeddings/throttled-warning.ts';
import { persistentSecret } from './secrets.ts';
import { openMongoStore } from './stores/mongo/mongo-store.ts';
import { openSqliteStore } from './stores/sqlite/sqlite-store.ts';
import { openCluster, type Cluster } from './cluster/cluster.ts';
import { drain } from './cluster/drain.ts';

export interface RunningServer {
  /** Base URL the server answers on, e.g. http://127.0.0.1:3000. */
  readonly url: string;
  readonly store: Store;
  readonly io: ChatServer;
  readonly jobs: JobRunner;
  readonly functionKey: string;
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
  /** Cluster mode (REDIS_URL): this node's id and what it shares through Redis; absent on a single node. */
  readonly cluster?: Cluster;
  /**
   * Stops gracefully: /readyz answers 503 at once, client events are no longer taken, turns,
   * sync integration calls and jobs in hand finish (up to SHUTDOWN_GRACE), then widgets are
   * disconnected so they reconnect to another node. Always ends with `server stopped` logged.
   */
  close(): Promise<void>;
}

export type ReloadOutcome = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

export interface StartOptions {
  readonly clock?: Clock;
  /** Where log lines go; stdout when omitted. */
  readonly logDestination?: NodeJS.WritableStream;
  /** Where the definition's named variables (a wait step's durationEnv, integration secrets) are read; process.env when omitted. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The composition root: the only place that knows which store, clock and channel are real. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config.LOG_LEVEL, options.logDestination, () => {
    const requestId = currentRequestId();
    return requestId ? { requestId } : {};
  });
  // The bot's own step type modules are part of its definition: a broken one stops start-up before anything is opened.
  // The same checks as `chatbot check`: any error stops start-up before anything is opened; warnings are logged.
  const source = await readBot(config.BOT_DEFINITION, options.env ?? process.env);
  for (const problem of source.warnings) logger.warn({ event: 'definition_warning', path: problem.path }, formatProblem(problem));
  const dataDir = path.resolve(config.DATA_DIR);
  const store = await openStore(config, dataDir);
  let cluster: Cluster | undefined;
  try {
    cluster = config.REDIS_URL ? await openCluster({ url: config.REDIS_URL, logger }) : undefined;
    return await assemble(config, options, logger, source, dataDir, store, cluster);
  } catch (error) {
    // A later start-up failure (a bad integration block, a taken port) must not leave the store open.
    await cluster?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
}

async function assemble(
  config: Config,
  options: StartOptions,
  logger: ReturnType<typeof createLogger>,
  source: BotSource,
  dataDir: string,
  store: Store,
  cluster: Cluster | undefined,
): Promise<RunningServer> {
  const { definition } = source;
  let draining = false;
  const functionKey = await persistentSecret(dataDir, 'function-key', config.BOT_FUNCTION_KEY);
  if (functionKey.generated) {
    // Shown once, on the start that generated it, and never logged afterwards.
    process.stderr.write(`Generated a function key for the management API (kept in ${dataDir}): ${functionKey.value}\n`);
  }
  const sessionSecret = await persistentSecret(dataDir, 'session', config.SESSION_SECRET);

  const mailer = config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.SMTP_FROM ?? `"${definition.settings.name}" <bot@localhost>`) : undefined;
  const sms = config.SMS_URL
    ? createHttpSmsSender({ url: config.SMS_URL, username: config.SMS_USERNAME, password: config.SMS_PASSWORD, from: config.SMS_FROM ?? definition.settings.name })
    : undefined;
  const stepTypes = new Set(definition.dialogs.flatMap((d) => d.steps.map((step) => step.type)));
  if (!mailer && stepTypes.has('email')) logger.warn({ event: 'email_unconfigured' }, 'the bot has email steps but SMTP_URL is unset: they will fail and follow their onError');
  if (!sms && stepTypes.has('sms')) logger.warn({ event: 'sms_unconfigured' }, 'the bot has sms steps but SMS_URL is unset: they will fail and follow their onError');
  let baseUrl = config.PUBLIC_URL ?? '';
  const links = createLinkSigner(sessionSecret.value, () => baseUrl, config.SESSION_SECRET_PREVIOUS);

  const root = projectRoot();
  const metrics = createMetrics();
  const env = options.env ?? process.env;
  const runtimeDeps = {
    store,
    clock: options.clock ?? systemClock,
    logger,
    // jobs is built below; async steps only run once the server is up.
    scheduler: { schedule: (job: Parameters<JobRunner['schedule']>[0]) => jobs.schedule(job), cancel: (id: string) => jobs.cancel(id) },
    env,
    allowedHosts: config.INTEGRATION_ALLOWED_HOSTS,
    metrics: metrics.port,
    ...(cluster ? { datasetCluster: cluster.datasets } : {}),
  };
  // Integration settings (services, background datasets) and every integration step are checked here:
  // a bad field or a missing secret stops start-up naming its definition path. The models are trained here too.
  // `bot` is what a reload swaps; everything that reads the definition reads it through deps or bot.
  // Sentence embeddings (EMBEDDINGS): a local model that is missing stops start-up here, naming what to do.
  // Requests to an embeddings endpoint leave through the integrations' guarded client: INTEGRATION_ALLOWED_HOSTS applies.
  const embeddings = await openEmbeddings(config, {
    dataDir,
    http: () => new SafeHttpClient({ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS }),
    warn: (message) => logger.warn({ event: 'embedding_cache' }, message),
  });
  const understanding = { embeddings, warn: throttledWarning((message) => logger.warn({ event: 'embeddings_unavailable' }, message)) };
  let bot: PreparedBot;
  try {
    bot = await prepareBot(source, runtimeDeps, understanding);
  } catch (error) {
    await embeddings?.close();
    throw error;
  }
  if (embeddings) logger.info({ event: 'embeddings', model: embeddings.modelId, encoded: embeddings.encoded }, `sentence embeddings from ${embeddings.modelId}: ${embeddings.encoded} texts encoded at start, the rest from the cache`);
  // The generic bot REST channels: each with its delivery; users are routed to theirs by channelId.
  const clock = options.clock ?? systemClock;
  const restDeliveries = new Map<string, RestDelivery>(
    config.REST_CHANNELS.map((channel) => [channel.name, restDelivery(channel, { schedule: (job) => jobs.schedule(job), cancel: (id) => jobs.cancel(id) }, logger, () => clock.now())]),
  );
  // Callbacks leave through the same guarded client as integration calls: INTEGRATION_ALLOWED_HOSTS applies.
  const callbackClient = new SafeHttpClient({ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS });
  let delivery: ReturnType<typeof deliveryByChannel> | undefined;
  let schemaText: string | undefined;
  const app = createApp({
    store,
    logger,
    widgetDir: path.join(root, 'dist'),
    // The demo shop page is the demo bot's; a customer's bot answers / with a short page of its own.
    demoDir: (config.DEMO_PAGE ?? path.resolve(config.BOT_DEFINITION) === DEMO_BOT_DEFINITION) ? path.join(root, 'demo', 'public') : undefined,
    botName: definition.settings.name,
    trustProxy: config.TRUST_PROXY,
    management: {
      get definition() {
        return bot.definition;
      },
      store,
      logger,
      functionKey: functionKey.value,
      rateLimitPerMinute: config.MANAGEMENT_RATE_LIMIT,
      limiter: cluster?.limiter,
      metrics,
      metricsAccess: { token: config.METRICS_TOKEN, openOnLoopback: isLoopbackHost(config.HOST) },
      trustProxy: config.TRUST_PROXY,
      // deps is built below, once the channel exists; requests only arrive after listen().
      deps: () => deps,
    },
    urlTracker: (token) => openTrackedLink(deps, token),
    datasets: { target: currentDatasets(() => bot.runtime), functionKey: functionKey.value },
    // Editors fetch it by the URL a definition's $schema names; it lists this bot's own step types too.
    definitionSchema: { path: SCHEMA_PATH, text: () => (schemaText ??= editorSchema({ ownStepTypes: bot.ownStepTypes, id: `${baseUrl}${SCHEMA_PATH}` })) },
    restChannels:
      config.REST_CHANNELS.length > 0
        ? {
            handler: restEndpoint({ channels: config.REST_CHANNELS, deliveries: restDeliveries, deps: () => deps, remember: (userId, channelId) => delivery?.remember(userId, channelId), answerWaitMs: config.REST_CHANNEL_ANSWER_WAIT }),
            rateLimitPerMinute: config.REST_CHANNEL_RATE_LIMIT,
            keys: config.REST_CHANNELS.flatMap((channel) => [channel.key, ...(channel.keyPrevious ? [channel.keyPrevious] : [])]),
          }
        : undefined,
    readiness: { redis: cluster?.ping, nodes: cluster ? () => cluster.registry.nodes() : undefined, draining: () => draining },
    limiter: cluster?.limiter,
  });
  const http = createServer(app);
  const io: ChatServer = new Server(http, {
    // CORS lets every page read the answer, so a refused origin learns why (attachWebchat's
    // checkOrigin refuses it with a code); it grants nothing, as no cookie is ever involved.
    cors: { origin: true, credentials: false },
    maxHttpBufferSize: 64 * 1024,
    // Cluster mode: rooms span every node, so a turn on any node reaches the user's widgets on all.
    ...(cluster ? { adapter: cluster.adapter } : {}),
  });
  const jobs = new JobRunner({ store, clock, logger, leaseMs: config.JOB_LEASE_SECONDS * 1000, metrics: metrics.port });
  metrics.watch({
    dueJobs: () => store.dueJobs(clock.now()),
    datasets: async () => Promise.all(bot.runtime.datasets.names().map(async (name) => ({ name, updatedAt: (await store.datasetInfo(name))?.updatedAt ?? null }))),
    now: () => clock.now(),
  });
  io.on('connection', (socket) => {
    metrics.socketConnected();
    socket.on('disconnect', (reason) => metrics.socketDisconnected(reason));
  });
  const deps: { -readonly [K in keyof AppDeps]: AppDeps[K] } = {
    definition,
    store,
    clock,
    delivery: (delivery = deliveryByChannel(store, { channels: restDeliveries, fallback: socketDelivery(io, cluster?.presence) }, logger)),
    logger,
    scheduler: jobs,
    // In a cluster one user's turns also wait on the user's lease in Redis, so a trigger on one node and a
    // message on another run one after the other; the store's version check stays the guarantee.
    turns: cluster ? new LeasedTurns(cluster.turnLeases, { owner: `${hostname()}:${process.pid}`, logger }) : new KeyedQueue(),
    metrics: metrics.port,
    classifier: bot.classifier,
    faq: bot.faq,
    mailer,
    sms,
    links,
    integrations: bot.caller,
    integrationCallsPerMinute: config.INTEGRATION_USER_RATE_LIMIT,
  };
  jobs.register(TIMER_JOB_KIND, timerJobHandler(deps));
  jobs.register(TRIGGER_JOB, triggerJobHandler(deps));
  jobs.register(PENDING_JOB_KIND, pendingTurnJobHandler(deps));
  // Through bot: a job scheduled before a reload runs on the runtime in service when it is due.
  jobs.register(INTEGRATION_JOB_KIND, (job) => integrationJobHandler(bot.runtime)(job));
  const retention = retentionSettings(config);
  jobs.register(RETENTION_JOB, retentionJobHandler({ store, clock, logger, settings: retention }));
  jobs.register(
    CALLBACK_JOB,
    callbackJobHandler({
      store,
      channels: new Map(config.REST_CHANNELS.map((channel) => [channel.name, channel])),
      send: async (request) => ({ status: (await callbackClient.send({ ...request, method: 'POST', maxRedirects: 0 })).status }),
      logger,
      now: () => clock.now(),
    }),
  );
  metrics.countConnectedUsers(() => new Set([...io.of('/').sockets.values()].map((socket) => socket.data.userId)).size);
  const sessions = new SessionTokens({
    secret: sessionSecret.value,
    previousSecret: config.SESSION_SECRET_PREVIOUS,
    ttlMs: config.SESSION_TTL,
    now: () => clock.now(),
  });
  let ownOrigins: string[] = [];
  attachWebchat(io, deps, sessions, logger, {
    identitySecret: config.BOT_IDENTITY_SECRET,
    rateLimitPerMinute: config.WEBCHAT_RATE_LIMIT,
    clientIp: (req) => clientIp(req, config.TRUST_PROXY),
    checkOrigin: originPolicy({ allowed: config.ALLOWED_ORIGINS, own: () => ownOrigins, logger }),
    presence: cluster?.presence,
    userLimit: cluster ? sharedUserLimit(cluster, config.WEBCHAT_RATE_LIMIT) : undefined,
    draining: () => draining,
  });
  // A connected web chat user's channel is known: their deliveries need no lookup.
  if (restDeliveries.size > 0) io.on('connection', (socket) => delivery?.remember(socket.data.userId, WEBCHAT));

  await listen(http, config.PORT, config.HOST);
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  baseUrl = config.PUBLIC_URL ?? url;
  ownOrigins = [new URL(url).origin, new URL(baseUrl).origin];
  jobs.start();
  await scheduleRetention(jobs, retention, clock.now());
  await bot.runtime.start();
  logger.info(
    { event: 'started', url, bot: definition.settings.id, store: config.MONGODB_URL ? 'mongo' : 'sqlite', ...(cluster ? { node: cluster.nodeId } : {}) },
    cluster ? 'server started (cluster mode)' : 'server started',
  );

  let closing: Promise<void> | undefined;
  let reloading: Promise<ReloadOutcome> = Promise.resolve({ ok: true });
  const reload = async (): Promise<ReloadOutcome> => {
    let next: PreparedBot;
    const encodedBefore = embeddings?.encoded ?? 0;
    try {
      const source = await readBot(config.BOT_DEFINITION, env);
      for (const problem of source.warnings) logger.warn({ event: 'definition_warning', path: problem.path }, formatProblem(problem));
      next = await prepareBot(source, runtimeDeps, understanding);
    } catch (error) {
      return refused(error);
    }
    try {
      // Datasets load before the swap, so no turn queries a runtime that has not read them yet.
      await next.runtime.start();
    } catch (error) {
      await next.runtime.close().catch(() => undefined);
      return refused(error);
    }
    if (closing) {
      await next.runtime.close();
      return { ok: false, problems: ['the server is closing'] };
    }
    const previous = bot;
    // One synchronous swap: the definition, its models and its integration caller change together (a turn under way reads the new ones from its next read on).
    bot = next;
    // The editor schema lists the bot's own step types: built again on the next request.
    schemaText = undefined;
    Object.assign(deps, { definition: next.definition, classifier: next.classifier, faq: next.faq, integrations: next.caller });
    await previous.runtime.close();
    logger.info(
      {
        event: 'definition_reloaded',
        file: config.BOT_DEFINITION,
        bot: next.definition.settings.id,
        dialogs: next.definition.dialogs.length,
        ...(embeddings ? { encoded: embeddings.encoded - encodedBefore } : {}),
      },
      'bot definition reloaded; conversations carry on with it',
    );
    return { ok: true };
  };
  const refused = (error: unknown): ReloadOutcome => {
    const problems = error instanceof DefinitionError ? [...error.problems] : [(error as Error).message ?? String(error)];
    for (const problem of problems) logger.error({ event: 'definition_reload_problem', file: config.BOT_DEFINITION, problem }, problem);
    logger.error(
      { event: 'definition_reload_failed', file: config.BOT_DEFINITION, problems: problems.length },
      'the bot definition was not reloaded: it has problems (logged above); the running definition stays in service',
    );
    return { ok: false, problems };
  };
  return {
    url,
    store,
    io,
    jobs,
    functionKey: functionKey.value,
    get integrations() {
      return bot.runtime;
    },
    get files() {
      return watchedFiles(bot);
    },
    reload() {
      // One at a time, in order: the last reload asked for reads the file last.
      reloading = reloading.then(reload, reload);
      return reloading;
    },
    ...(cluster ? { cluster } : {}),
    close() {
      closing ??= (async () => {
        draining = true;
        try {
          await reloading.catch(() => undefined);
          await drain({ graceMs: config.SHUTDOWN_GRACE, logger, jobs, turns: deps.turns, io });
          await bot.runtime.close();
          await embeddings?.close();
          callbackClient.close();
          await new Promise<void>((resolve) => http.close(() => resolve()));
          await cluster?.close();
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

/** WEBCHAT_RATE_LIMIT per user over every node: the per-connection bucket alone would let a user's tabs on several nodes add up. */
function sharedUserLimit(cluster: Cluster, perMinute: number): (userId: string) => Promise<boolean> {
  const limiter = cluster.limiter('webchat', perMinute, 60_000);
  return async (userId) => (await limiter.take(userId)).allowed;
}

async function openStore(config: Config, dataDir: string): Promise<Store> {
  if (config.MONGODB_URL) return openMongoStore({ url: config.MONGODB_URL });
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

/** Run from the command line: start, stop cleanly on SIGINT/SIGTERM, and fail fast with one clear line. */
async function main(): Promise<void> {
  try {
    const server = await startServer(readConfig(process.env));
    process.stdout.write(`Chatbot is running at ${server.url}\n`);
    const stopWatching = process.argv.includes('--watch') ? watchBot(server) : () => undefined;
    const stop = () => {
      stopWatching();
      void server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // An operator's `kill -HUP`: read the definition again without dropping a connection.
    process.on('SIGHUP', () => void server.reload());
  } catch (error) {
    process.stderr.write(`${startupMessage(error)}\n`);
    process.exit(1);
  }
}

/**
 * `npm run dev`: reloads when the definition or one of its step type modules changes. Polls
 * (stat), as editors save by replacing the file, which ends a watch on the old one; after each
 * reload the list is read again, since stepTypes may name other modules now.
 */
function watchBot(server: RunningServer): () => void {
  let watched: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    // An editor's save can be several writes: reload once they settle.
    timer = setTimeout(() => void server.reload().then(watch), 150);
  };
  const watch = () => {
    for (const file of watched) unwatchFile(file, changed);
    watched = [...server.files];
    for (const file of watched) watchFile(file, { interval: 250 }, changed);
  };
  watch();
  process.stdout.write(`Watching ${watched.length} file${watched.length === 1 ? '' : 's'} of the bot definition; saving one reloads it.\n`);
  return () => {
    clearTimeout(timer);
    for (const file of watched) unwatchFile(file, changed);
  };
}

/** One line a person can act on, for a start-up failure; the demo launcher prints it too. */
export function startupMessage(error: unknown): string {
  if (error instanceof ConfigError) return `Configuration error: ${error.message}`;
  if (error instanceof DefinitionError) return error.message;
  if (error instanceof StepTypeModuleError) return error.message;
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    return `Cannot start: the port is already in use (${(error as Error).message}). Set PORT to a free port.`;
  }
  return `Cannot start: ${(error as Error).message ?? String(error)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
