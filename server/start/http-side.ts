import type { RequestListener } from 'node:http';
import type { Config } from '../config.ts';
import { DEMO_BOT_DEFINITION } from '../config.ts';
import path from 'node:path';
import type { AppDeps } from '../app/deps.ts';
import type { SubscriptionDeps } from '../app/manage-subscriptions.ts';
import { openTrackedLink } from '../app/open-tracked-link.ts';
import { createApp, type AppOptions } from '../api/create-app.ts';
import type { createMetrics } from '../api/metrics.ts';
import { isLoopbackHost } from '../api/metrics-access.ts';
import type { RestDelivery } from '../channels/rest/rest-delivery.ts';
import { restEndpoint } from '../channels/rest/rest-endpoint.ts';
import type { Cluster } from '../cluster/cluster.ts';
import { editorSchema } from '../bot/editor-schema.ts';
import { SCHEMA_PATH } from '../definition/json-schema.ts';
import type { DatasetPushTarget } from '../api/datasets-router.ts';
import type { IntegrationRuntime } from '../integrations/run-integration.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';
import type { AuditLog } from '../ports/audit.ts';
import type { BotService } from '../bot/bot-service.ts';

export interface HttpSideOptions {
  readonly config: Config;
  readonly root: string;
  readonly store: Store;
  readonly logger: Logger;
  readonly bot: BotService;
  readonly functionKey: string;
  readonly metrics: ReturnType<typeof createMetrics>;
  readonly cluster?: Cluster;
  readonly restDeliveries: ReadonlyMap<string, RestDelivery>;
  /** The connectors' webhooks (Telegram, …); none configured: no /api/webhooks route. */
  readonly webhooks?: AppOptions['webhooks'];
  /** The use cases' dependencies, built once the channels exist; requests only arrive after listen(). */
  readonly deps: () => AppDeps;
  /** A REST channel user's channel, remembered for deliveries. */
  readonly remember: (userId: string, channelId: string) => void;
  /** The bot's public base URL, known once the server listens. */
  readonly baseUrl: () => string;
  readonly draining: () => boolean;
  /** The studio's audit trail: exported by the management API, and told of user erasures. */
  readonly audit?: AuditLog;
  /** Event subscriptions (REST hooks) for the management API: built with the job runner, after this. */
  readonly subscriptions?: () => SubscriptionDeps;
  /** Surfaces mounted beside the management API (the studio). */
  readonly surfaces?: AppOptions['surfaces'];
}

/** Everything answered over HTTP: the widget's files, the management API, REST channels, datasets, links, the editor schema. */
export function httpSide(options: HttpSideOptions): RequestListener {
  const { config, bot, cluster, store, logger } = options;
  let schemaText: string | undefined;
  // The editor schema lists the bot's own step types: built again on the next request after a swap.
  bot.onSwap(() => {
    schemaText = undefined;
  });
  return createApp({
    store,
    logger,
    widgetDir: path.join(options.root, 'dist'),
    // The demo shop page is the demo bot's; a customer's bot answers / with a short page of its own.
    demoDir:
      (config.DEMO_PAGE ?? path.resolve(config.BOT_DEFINITION) === DEMO_BOT_DEFINITION)
        ? path.join(options.root, 'demo', 'public')
        : undefined,
    botName: bot.current.definition.settings.name,
    trustProxy: config.TRUST_PROXY,
    management: {
      get definition() {
        return bot.current.definition;
      },
      store,
      logger,
      functionKey: options.functionKey,
      rateLimitPerMinute: config.MANAGEMENT_RATE_LIMIT,
      limiter: cluster?.limiter,
      metrics: options.metrics,
      metricsAccess: { token: config.METRICS_TOKEN, openOnLoopback: isLoopbackHost(config.HOST) },
      trustProxy: config.TRUST_PROXY,
      deps: options.deps,
      ...(options.audit ? { audit: options.audit } : {}),
      ...(options.subscriptions ? { subscriptions: options.subscriptions } : {}),
    },
    urlTracker: (token) => openTrackedLink(options.deps(), token),
    datasets: { target: currentDatasets(() => bot.current.runtime), functionKey: options.functionKey },
    // Editors fetch it by the URL a definition's $schema names; it lists this bot's own step types too.
    definitionSchema: {
      path: SCHEMA_PATH,
      text: () =>
        (schemaText ??= editorSchema({
          ownStepTypes: bot.current.ownStepTypes,
          id: `${options.baseUrl()}${SCHEMA_PATH}`,
        })),
    },
    restChannels:
      config.REST_CHANNELS.length > 0
        ? {
            handler: restEndpoint({
              channels: config.REST_CHANNELS,
              deliveries: options.restDeliveries,
              deps: options.deps,
              remember: options.remember,
              answerWaitMs: config.REST_CHANNEL_ANSWER_WAIT,
            }),
            rateLimitPerMinute: config.REST_CHANNEL_RATE_LIMIT,
            keys: config.REST_CHANNELS.flatMap((channel) => [
              channel.key,
              ...(channel.keyPrevious ? [channel.keyPrevious] : []),
            ]),
          }
        : undefined,
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    readiness: {
      redis: cluster?.ping,
      nodes: cluster ? () => cluster.registry.nodes() : undefined,
      draining: options.draining,
    },
    limiter: cluster?.limiter,
    ...(options.surfaces ? { surfaces: options.surfaces } : {}),
  });
}

/** Dataset pushes go to whichever runtime is in service now, across reloads. */
function currentDatasets(current: () => IntegrationRuntime): DatasetPushTarget {
  return {
    has: (name) => current().datasets.has(name),
    names: () => current().datasets.names(),
    replace: (name, rows) => current().datasets.replace(name, rows),
    update: (name, change) => current().datasets.update(name, change),
    pull: (name) => current().datasets.pull(name),
    info: (name) => current().datasets.info(name),
  };
}
