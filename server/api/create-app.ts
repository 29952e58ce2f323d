import express, { type RequestHandler } from 'express';
import type { RequestListener } from 'node:http';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';
import { TRUST_LOOPBACK, type ProxyTrust } from '../settings/client-ip.ts';
import type { ChannelHandler } from '../ports/channel-request.ts';
import { channelEndpoint } from './channel-endpoint.ts';
import type { WebhookHandler } from '../ports/webhook-request.ts';
import { webhookEndpoint } from './webhook-endpoint.ts';
import { datasetsRouter, type DatasetPushTarget } from './datasets-router.ts';
import { errorHandler, notFound } from './errors.ts';
import { healthRouter, type Readiness } from './health.ts';
import { homePage } from './home-page.ts';
import { managementApi, type ManagementOptions } from './management-api.ts';
import { localLimiter, type LimiterFactory } from './rate-limit.ts';
import { withRequestId } from './request-id.ts';
import { requestLog } from './request-log.ts';
import { urlTrackerRouter } from './url-tracker.ts';
import { widgetAssetsRouter } from './widget-assets.ts';

export interface AppOptions {
  readonly store: Store;
  readonly logger: Logger;
  /** Folder holding the built widget.js. */
  readonly widgetDir: string;
  /** Folder holding the demo host page (index.html); none served when absent. */
  readonly demoDir?: string;
  /** Which proxies may name the client in X-Forwarded-For (TRUST_PROXY); loopback when absent. */
  readonly trustProxy?: ProxyTrust;
  /** The bot's name, for the short page at `/` when no demo page is served. */
  readonly botName?: string;
  /** The management API (exports, triggers, /metrics, OpenAPI document); not mounted when absent. */
  readonly management?: ManagementOptions;
  /** Opens a tracked link (`GET /r/:token`): the target to redirect to, or null for a token we did not sign. */
  readonly urlTracker?: (token: string) => Promise<string | null>;
  /** Background dataset push and change-signal endpoints (/api/management/datasets/{name}); not mounted when absent. */
  readonly datasets?: { readonly target: DatasetPushTarget; readonly functionKey: string };
  /**
   * The generic bot REST channels' handler, answering /api/channels/… on node:http before
   * Express (channel-endpoint.ts) behind its own rate limit per client IP; `keys` are
   * redacted from logged URLs like the function key.
   */
  readonly restChannels?: {
    readonly handler: ChannelHandler;
    readonly rateLimitPerMinute: number;
    readonly keys: readonly string[];
  };
  /**
   * The vendors' webhooks (/api/webhooks/{connector}), answered on node:http before Express
   * (webhook-endpoint.ts); `secrets` are redacted from the request log.
   */
  readonly webhooks?: { readonly handler: WebhookHandler; readonly secrets: readonly string[] };
  /** The bot definition's JSON Schema for editors, served at `path` so a definition's `$schema` can name it. */
  readonly definitionSchema?: { readonly path: string; readonly text: () => string };
  /** What /readyz checks besides the store (Redis in cluster mode, shutdown). */
  readonly readiness?: Readiness;
  /** Where request limits are counted: this process when absent, every node together in cluster mode. */
  readonly limiter?: LimiterFactory;
  /**
   * Surfaces of their own (the studio at /studio), mounted after the management API and before
   * the demo page; each answers its own paths and passes the rest on. Errors they raise get the
   * catalogue's body like every other route.
   */
  readonly surfaces?: readonly RequestHandler[];
}

/**
 * The HTTP side of the server, as a listener for node:http. Never listens:
 * main.ts and tests do. Trigger and REST channel requests are answered before Express
 * sees them (trigger-endpoint.ts, channel-endpoint.ts); everything else goes through Express.
 */
export function createApp(options: AppOptions): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  // The same function clientIp() uses, so req.ip, req.protocol and the logs and rate limits agree.
  app.set('trust proxy', options.trustProxy ?? TRUST_LOOPBACK);
  // The function key by value too: sent in the wrong place (a misspelt parameter, a path) it is still the key.
  const secrets = [
    options.management?.functionKey,
    options.datasets?.functionKey,
    ...(options.restChannels?.keys ?? []),
    ...(options.webhooks?.secrets ?? []),
  ].filter((key): key is string => typeof key === 'string' && key !== '');
  app.use(requestLog(options.logger, secrets, options.trustProxy));
  if (options.management?.metrics) app.use(options.management.metrics.middleware);
  app.use(healthRouter(options.store, options.readiness));
  app.use(widgetAssetsRouter(options.widgetDir));
  const management = options.management ? managementApi(options.management) : undefined;
  if (management) app.use(management.router);
  // After the management API, so its rate limit and key check run first for these paths too.
  if (options.datasets)
    app.use(
      '/api/management/datasets',
      datasetsRouter({ datasets: options.datasets.target, functionKey: options.datasets.functionKey }),
    );
  if (options.urlTracker) app.use(urlTrackerRouter(options.urlTracker));
  const schema = options.definitionSchema;
  if (schema)
    app.get(
      schema.path,
      (_req, res) => void res.type('application/schema+json').set('cache-control', 'no-cache').send(schema.text()),
    );
  for (const surface of options.surfaces ?? []) app.use(surface);
  if (options.demoDir) app.use(express.static(options.demoDir, { index: 'index.html', extensions: ['html'] }));
  else if (options.botName !== undefined) app.use(homePage(options.botName));
  app.use(notFound);
  app.use(errorHandler(options.logger));
  // The same limit, headers and 429 as the management API, counted on its own, before the channel's key check.
  const channels = options.restChannels
    ? channelEndpoint({
        handler: options.restChannels.handler,
        limiter: (options.limiter ?? localLimiter)('channels', options.restChannels.rateLimitPerMinute, 60_000),
        secrets,
        trustProxy: options.trustProxy,
        logger: options.logger,
        metrics: options.management?.metrics,
      })
    : undefined;
  const webhooks = options.webhooks
    ? webhookEndpoint({
        handler: options.webhooks.handler,
        secrets,
        trustProxy: options.trustProxy,
        logger: options.logger,
        metrics: options.management?.metrics,
      })
    : undefined;
  const trust = options.trustProxy ?? TRUST_LOOPBACK;
  const triggers = management?.triggers;
  return (req, res) => {
    // The channels name their request id themselves (channel-endpoint.ts).
    if (channels?.(req, res)) return;
    if (webhooks?.(req, res)) return;
    withRequestId(req, res, trust, () => {
      if (!triggers?.(req, res)) app(req, res);
    });
  };
}
