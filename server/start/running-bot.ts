import { botHost, type RunningBot } from '../bot/bot-host.ts';
import { botService } from '../bot/bot-service.ts';
import { startingSource } from '../bot/file-import.ts';
import { prepareBot, type BotSource } from '../bot/load-bot.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { Config } from '../config.ts';
import { SafeHttpClient } from '../integrations/http/safe-http-client.ts';
import type { IntegrationRuntimeDeps } from '../integrations/run-integration.ts';
import { openEmbeddings } from '../nlp/embeddings/open-embeddings.ts';
import { throttledWarning } from '../nlp/embeddings/throttled-warning.ts';
import type { NodeSignals } from '../ports/bot-host.ts';
import type { Clock } from '../ports/clock.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { InsightsRecorder } from '../app/insights/recorder.ts';
import type { Logger } from '../ports/logger.ts';
import type { BotTestsRoom } from '../ports/bot-tests.ts';
import type { VersionsDeps } from '../studio-server/versions/versions-deps.ts';
import { openScratchStore, storeRooms, type OpenedStore } from './open-store.ts';
import type { Studio } from './studio-server.ts';

export interface RunningBotSetup {
  readonly config: Config;
  readonly store: OpenedStore;
  readonly studio: Studio;
  readonly cluster: Cluster | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly dataDir: string;
  /** BOT_DEFINITION as read at start, checked. */
  readonly source: BotSource;
  readonly metrics: IntegrationRuntimeDeps['metrics'];
  readonly usage: IntegrationRuntimeDeps['usage'];
  /** Built after the bot: read when an asynchronous step is scheduled. */
  readonly jobs: () => JobRunner;
  /** Read when a call is made: the use cases' recorder, built after the bot. */
  readonly insights: () => InsightsRecorder | undefined;
}

export interface BotInService {
  readonly host: RunningBot;
  /** What the studio's versions use cases work with: the host and the rooms versions are kept in. */
  readonly versions: VersionsDeps;
  /** The bot's kept tests (the preview's "Save as test" adds to them). */
  readonly tests: BotTestsRoom;
  /** Sentence embeddings (EMBEDDINGS), when configured: closed with the server. */
  readonly embeddings: Awaited<ReturnType<typeof openEmbeddings>>;
}

/**
 * The bot that runs: the published version (the file seeds and imports versions, README "One
 * source of truth"), prepared with its models, behind the bot host (server/bot/).
 */
export async function openRunningBot(setup: RunningBotSetup): Promise<BotInService> {
  const { config, studio, cluster, clock, logger } = setup;
  const runtimeDeps: Omit<IntegrationRuntimeDeps, 'stepTypes'> = {
    ...{ store: setup.store, clock, logger, env: studio.env, allowedHosts: config.INTEGRATION_ALLOWED_HOSTS },
    scheduler: { schedule: (job) => setup.jobs().schedule(job), cancel: (id) => setup.jobs().cancel(id) },
    metrics: setup.metrics,
    ...(cluster ? { datasetCluster: cluster.datasets } : {}),
    insights: setup.insights,
    usage: setup.usage,
  };
  const rooms = storeRooms(setup.store);
  const tests = rooms.botTests();
  const hostSetup = {
    room: await rooms.versions(),
    audit: studio.audit,
    clock,
    logger,
    file: config.BOT_DEFINITION,
    // The environment, then the studio's secrets (a set variable wins): what the definition's named variables read.
    env: studio.env,
    tests,
    scratchStore: openScratchStore,
    ...(cluster ? { signals: nodeSignals(cluster) } : {}),
  };
  const published = await startingSource(hostSetup, setup.source);
  // Sentence embeddings (EMBEDDINGS): a local model that is missing stops start-up here, naming what to do.
  // Requests to an embeddings endpoint leave through the integrations' guarded client: INTEGRATION_ALLOWED_HOSTS applies.
  const embeddings = await openEmbeddings(config, {
    dataDir: setup.dataDir,
    http: () => new SafeHttpClient({ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS }),
    warn: (message) => logger.warn({ event: 'embedding_cache' }, message),
  });
  const understanding = {
    embeddings,
    warn: throttledWarning((message) => logger.warn({ event: 'embeddings_unavailable' }, message)),
  };
  // Integration settings (services, background datasets) and every integration step are checked here:
  // a bad field or a missing secret stops start-up naming its definition path. The models are trained here too.
  const first = await prepareBot(published, runtimeDeps, understanding).catch(async (error: unknown) => {
    await embeddings?.close();
    throw error;
  });
  if (embeddings)
    logger.info(
      { event: 'embeddings', model: embeddings.modelId, encoded: embeddings.encoded },
      `sentence embeddings from ${embeddings.modelId}: ${embeddings.encoded} texts encoded at start, the rest from the cache`,
    );
  const host = botHost(hostSetup, botService(first, runtimeDeps, logger, understanding));
  // A secret changed in the studio: the version in service read again with the new env, through the one swap path.
  studio.attach({ definition: () => host.service.current.definition, reprepare: (reason) => host.reprepare(reason) });
  const { live, check, putInService, announce } = host;
  const versions = { live, check, putInService, announce, room: hostSetup.room, resting: rooms.resting() };
  return { host, versions: { ...versions, audit: studio.audit, clock, logger }, tests, embeddings };
}

/** This node's signals to the others, from the cluster's Redis publish/subscribe. */
function nodeSignals(cluster: Cluster): NodeSignals {
  const { signals, nodeId } = cluster;
  return {
    nodeId,
    publish: (topic, message) => signals.publish(topic, message),
    subscribe: (topic, listener) => signals.subscribe(topic, listener),
  };
}
