import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { AppDeps } from '../app/deps.ts';
import type { SubscriptionDeps } from '../app/manage-subscriptions.ts';
import type { BotDefinition } from '../definition/schema.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store } from '../ports/store.ts';
import type { AuditLog } from '../ports/audit.ts';
import { auditRouter } from './management/audit-router.ts';
import { clientIp, rateLimitKey, type ProxyTrust } from '../settings/client-ip.ts';
import { HttpError } from './errors.ts';
import { metricsGuard, type MetricsAccess } from './metrics-access.ts';
import { metricsRouter, type HttpMetrics } from './metrics.ts';
import { openApiRouter } from './openapi/openapi-router.ts';
import { localLimiter, rateLimitHeaders, rateLimited, type LimiterFactory } from './rate-limit.ts';
import { erasureRouter } from './management/erasure-router.ts';
import { exportRouter } from './management/export-router.ts';
import { functionKeyCheck, requireFunctionKey } from './management/function-key.ts';
import { subscriptionsRouter } from './management/subscriptions-router.ts';
import type { RawEndpoint } from './raw-endpoint.ts';
import { triggerEndpoint } from './trigger-endpoint.ts';

export interface ManagementOptions {
  readonly definition: BotDefinition;
  readonly store: Store;
  readonly logger: Logger;
  /** The use cases' dependencies, for triggers; a getter because main.ts builds them after the app (the channel needs the HTTP server). */
  readonly deps: () => AppDeps;
  readonly functionKey: string;
  /** Requests a minute per client IP over all management endpoints. */
  readonly rateLimitPerMinute: number;
  readonly metrics?: HttpMetrics;
  /** Who may scrape /metrics; the function key when absent. */
  readonly metricsAccess?: MetricsAccess;
  /** Which proxies may name the client (TRUST_PROXY), for the rate limit's count per client; loopback when absent. */
  readonly trustProxy?: ProxyTrust;
  /** Where the limit is counted: this process when absent, every node together in cluster mode. */
  readonly limiter?: LimiterFactory;
  /** The studio's audit trail: exported at /api/management/audit, and told of every user erasure. */
  readonly audit?: AuditLog;
  /** Event subscriptions (REST hooks); a getter, as the server builds them with the job runner. No routes when absent. */
  readonly subscriptions?: () => SubscriptionDeps;
}

export interface ManagementApi {
  /** Exports, metrics, the OpenAPI document and the datasets' key check, on Express. */
  readonly router: Router;
  /** The trigger routes, served before Express sees the request (trigger-endpoint.ts says why). */
  readonly triggers: RawEndpoint;
}

const PREFIXES = ['/api/management', '/api/trigger', '/metrics'];
const WINDOW_MS = 60_000;

/** Errors Express or its body parser raise, in the catalogue's words; ours pass through unchanged. */
const translateErrors: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  if (error instanceof HttpError) return next(error);
  const status = (error as { status?: unknown }).status;
  if (error instanceof URIError || (status === 400 && typeof (error as { type?: unknown }).type !== 'string')) {
    return next(new HttpError(400, 'invalid_parameter', 'A part of the URL is not valid percent-encoding.'));
  }
  next(error);
};

/**
 * The management API: exports, triggers, metrics and the OpenAPI document.
 * Order matters: the rate limit comes before the key check (so a key cannot be
 * guessed at full speed), and the key check before anything reads the request.
 * One limiter and one key check serve both the Express routes and the triggers.
 */
export function managementApi(options: ManagementOptions): ManagementApi {
  const limiter = (options.limiter ?? localLimiter)('management', options.rateLimitPerMinute, WINDOW_MS);
  const checkKey = functionKeyCheck(options.functionKey);
  const limited: RequestHandler = (req, res, next) => {
    void Promise.resolve(limiter.take(rateLimitKey(clientIp(req, options.trustProxy)))).then((take) => {
      res.set(rateLimitHeaders(take, WINDOW_MS));
      next(take.allowed ? undefined : rateLimited(take));
    }, next);
  };
  const keyed = requireFunctionKey(checkKey);

  const router = Router();
  router.use(PREFIXES, limited);
  router.use(openApiRouter(options.definition));
  if (options.metrics)
    router.use(
      metricsRouter(options.metrics, options.metricsAccess ? metricsGuard(options.metricsAccess, keyed) : keyed),
    );
  router.use(['/api/management', '/api/trigger'], keyed);
  router.use('/api/management', exportRouter(options));
  router.use('/api/management', erasureRouter(options.deps, options.audit));
  if (options.audit) router.use('/api/management', auditRouter({ audit: options.audit, logger: options.logger }));
  if (options.subscriptions) router.use('/api/management', subscriptionsRouter(options.subscriptions));
  router.use(translateErrors);
  return {
    router,
    triggers: triggerEndpoint({
      deps: options.deps,
      checkKey,
      secrets: [options.functionKey],
      limiter,
      logger: options.logger,
      metrics: options.metrics,
      trustProxy: options.trustProxy,
    }),
  };
}
