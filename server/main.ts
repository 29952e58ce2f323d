import { mkdir } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Server } from 'socket.io';
import { clientIp } from './api/client-ip.ts';
import { createApp } from './api/create-app.ts';
import { createMetrics } from './api/metrics.ts';
import { TRIGGER_JOB } from './app/trigger-dialog.ts';
import { triggerJobHandler } from './jobs/handlers/trigger.ts';
import { TIMER_JOB_KIND, timerJobHandler } from './jobs/handlers/timer.ts';
import { openTrackedLink } from './app/open-tracked-link.ts';
import { createLinkSigner } from './api/url-tracker.ts';
import { createSmtpMailer } from './mail/smtp-mailer.ts';
import { createFaqMatcher } from './nlp/fuse-faq-matcher.ts';
import { trainIntentClassifier } from './nlp/nlpjs-classifier.ts';
import { createHttpSmsSender } from './sms/http-sms-sender.ts';
import type { AppDeps } from './app/deps.ts';
import { KeyedQueue } from './app/keyed-queue.ts';
import { CHANNEL_ID as WEBCHAT, attachWebchat, socketDelivery, type ChatServer } from './channels/webchat/socket-server.ts';
import { deliveryByChannel } from './channels/delivery-by-channel.ts';
import { CALLBACK_JOB, callbackJobHandler } from './channels/rest/callback-job.ts';
import { restDelivery, type RestDelivery } from './channels/rest/rest-delivery.ts';
import { restRouter } from './channels/rest/rest-router.ts';
import { SafeHttpClient } from './integrations/http/safe-http-client.ts';
import { originPolicy } from './channels/webchat/origin-policy.ts';
import { SessionTokens } from './channels/webchat/session-tokens.ts';
import { ConfigError, DEMO_BOT_DEFINITION, readConfig, type Config } from './config.ts';
import { DefinitionError, loadDefinition } from './definition/load.ts';
import { createLogger } from './logger.ts';
import { projectRoot } from './paths.ts';
import { systemClock, type Clock } from './ports/clock.ts';
import type { Store } from './ports/store.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { integrationJobHandler } from './jobs/handlers/integration.ts';
import { INTEGRATION_JOB_KIND, IntegrationRuntime } from './integrations/run-integration.ts';
import { createBotIntegrations } from './integrations/bot-steps.ts';
import { loadStepTypeModules, StepTypeModuleError } from './integrations/step-types/load-modules.ts';
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
}

/** The composition root: the only place that knows which store, clock and channel are real. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config.LOG_LEVEL, options.logDestination);
  const definition = await loadDefinition(config.BOT_DEFINITION, { env: options.env ?? process.env });
  // The bot's own step type modules are part of its definition: a broken one stops start-up before anything is opened.
  const ownStepTypes = await loadStepTypeModules(definition.stepTypes, config.BOT_DEFINITION);
  const dataDir = path.resolve(config.DATA_DIR);
  const store = await openStore(config, dataDir);
  let cluster: Cluster | undefined;
  try {
    cluster = config.REDIS_URL ? await openCluster({ url: config.REDIS_URL, logger }) : undefined;
    return await assemble(config, options, logger, definition, dataDir, store, ownStepTypes, cluster);
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
  definition: Awaited<ReturnType<typeof loadDefinition>>,
  dataDir: string,
  store: Store,
  ownStepTypes: Awaited<ReturnType<typeof loadStepTypeModules>>,
  cluster: Cluster | undefined,
): Promise<RunningServer> {
  let draining = false;
  const functionKey = await persistentSecret(dataDir, 'function-key', config.BOT_FUNCTION_KEY);
  if (functionKey.generated) {
    // Shown once, on the start that generated it, and never logged afterwards.
    process.stderr.write(`Generated a function key for the management API (kept in ${dataDir}): ${functionKey.value}\n`);
  }
  const sessionSecret = await persistentSecret(dataDir, 'session', config.SESSION_SECRET);

  // The dialog engine's models (trained from the definition, offline) and outlets.
  const classifier = definition.intents.length > 0 ? await trainIntentClassifier(definition.intents, definition.settings.locale) : undefined;
  const faq = definition.faq.length > 0 ? createFaqMatcher(definition.faq) : undefined;
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
  // Integration settings (services, background datasets) and every integration step are checked here:
  // a bad field or a missing secret stops start-up naming its definition path.
  const { runtime: integrations, caller: integrationCaller } = createBotIntegrations(definition, config.BOT_DEFINITION, {
    store,
    clock: options.clock ?? systemClock,
    logger,
    // jobs is built below; async steps only run once the server is up.
    scheduler: { schedule: (job) => jobs.schedule(job), cancel: (id) => jobs.cancel(id) },
    env: options.env ?? process.env,
    allowedHosts: config.INTEGRATION_ALLOWED_HOSTS,
    metrics: metrics.port,
    stepTypes: ownStepTypes,
    ...(cluster ? { datasetCluster: cluster.datasets } : {}),
  });
  // The generic bot REST channels: each with its delivery; users are routed to theirs by channelId.
  const clock = options.clock ?? systemClock;
  const restDeliveries = new Map<string, RestDelivery>(
    config.REST_CHANNELS.map((channel) => [channel.name, restDelivery(channel, { schedule: (job) => jobs.schedule(job), cancel: (id) => jobs.cancel(id) }, logger, () => clock.now())]),
  );
  // Callbacks leave through the same guarded client as integration calls: INTEGRATION_ALLOWED_HOSTS applies.
  const callbackClient = new SafeHttpClient({ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS });
  let delivery: ReturnType<typeof deliveryByChannel> | undefined;
  const app = createApp({
    store,
    logger,
    widgetDir: path.join(root, 'dist'),
    // The demo shop page is the demo bot's; a customer's bot answers / with a short page of its own.
    demoDir: (config.DEMO_PAGE ?? path.resolve(config.BOT_DEFINITION) === DEMO_BOT_DEFINITION) ? path.join(root, 'demo', 'public') : undefined,
    botName: definition.settings.name,
    trustProxy: config.TRUST_PROXY,
    management: {
      definition,
      store,
      logger,
      functionKey: functionKey.value,
      rateLimitPerMinute: config.MANAGEMENT_RATE_LIMIT,
      limiter: cluster?.limiter,
      metrics,
      trustProxy: config.TRUST_PROXY,
      // deps is built below, once the channel exists; requests only arrive after listen().
      deps: () => deps,
    },
    urlTracker: (token) => openTrackedLink(deps, token),
    datasets: { target: integrations.datasets, functionKey: functionKey.value },
    restChannels:
      config.REST_CHANNELS.length > 0
        ? {
            router: restRouter({ channels: config.REST_CHANNELS, deliveries: restDeliveries, deps: () => deps, remember: (userId, channelId) => delivery?.remember(userId, channelId), answerWaitMs: config.REST_CHANNEL_ANSWER_WAIT }),
            rateLimitPerMinute: config.REST_CHANNEL_RATE_LIMIT,
            keys: config.REST_CHANNELS.map((channel) => channel.key),
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
  const jobs = new JobRunner({ store, clock, logger, leaseMs: config.JOB_LEASE_SECONDS * 1000 });
  const deps: AppDeps = {
    definition,
    store,
    clock,
    delivery: (delivery = deliveryByChannel(store, { channels: restDeliveries, fallback: socketDelivery(io, cluster?.presence) }, logger)),
    logger,
    scheduler: jobs,
    turns: new KeyedQueue(),
    metrics: metrics.port,
    classifier,
    faq,
    mailer,
    sms,
    links,
    integrations: integrationCaller,
    integrationCallsPerMinute: config.INTEGRATION_USER_RATE_LIMIT,
  };
  jobs.register(TIMER_JOB_KIND, timerJobHandler(deps));
  jobs.register(TRIGGER_JOB, triggerJobHandler(deps));
  jobs.register(INTEGRATION_JOB_KIND, integrationJobHandler(integrations));
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
  await integrations.start();
  logger.info(
    { event: 'started', url, bot: definition.settings.id, store: config.MONGODB_URL ? 'mongo' : 'sqlite', ...(cluster ? { node: cluster.nodeId } : {}) },
    cluster ? 'server started (cluster mode)' : 'server started',
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    store,
    io,
    jobs,
    functionKey: functionKey.value,
    integrations,
    ...(cluster ? { cluster } : {}),
    close() {
      closing ??= (async () => {
        draining = true;
        try {
          await drain({ graceMs: config.SHUTDOWN_GRACE, logger, jobs, turns: deps.turns, io });
          await integrations.close();
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
  await mkdir(dataDir, { recursive: true });
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
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    process.stderr.write(`${startupMessage(error)}\n`);
    process.exit(1);
  }
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
