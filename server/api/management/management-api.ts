import { Router, type ErrorRequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppDeps } from '../../app/deps.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Store } from '../../ports/store.ts';
import { HttpError } from '../errors.ts';
import { metricsRouter, type HttpMetrics } from '../metrics.ts';
import { openApiRouter } from '../openapi/openapi-router.ts';
import { exportRouter } from './export-router.ts';
import { requireFunctionKey } from './function-key.ts';
import { triggerRouter } from './trigger-router.ts';

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
}

const PREFIXES = ['/api/management', '/api/trigger', '/metrics'];

/** Errors Express or its body parser raise, in the catalogue's words; ours pass through unchanged. */
const translateErrors: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  if (error instanceof HttpError) return next(error);
  const status = (error as { status?: unknown }).status;
  const type = (error as { type?: unknown }).type;
  if (status === 413 || type === 'entity.too.large') {
    return next(new HttpError(413, 'payload_too_large', 'The request body is over 64 KiB; send less data with the trigger.'));
  }
  if (status === 415 || type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return next(new HttpError(415, 'unsupported_media_type', 'Send the body as UTF-8 JSON (Content-Type: application/json).'));
  }
  if (error instanceof URIError || (status === 400 && typeof type !== 'string')) {
    return next(new HttpError(400, 'invalid_parameter', 'A part of the URL is not valid percent-encoding.'));
  }
  if (status === 400) return next(new HttpError(400, 'invalid_body', 'The request body could not be read.'));
  next(error);
};

/**
 * The management API: exports, triggers, metrics and the OpenAPI document.
 * Order matters: the rate limit comes before the key check (so a key cannot be
 * guessed at full speed), and the key check before anything reads the request.
 */
export function managementApi(options: ManagementOptions): Router {
  const router = Router();
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: options.rateLimitPerMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (req, res, next) => {
      const reset = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60;
      res.setHeader('Retry-After', String(seconds));
      next(new HttpError(429, 'rate_limited', `Too many requests from this client; retry in ${seconds} s.`, { retryAfterSeconds: seconds }));
    },
  });
  const keyed = requireFunctionKey(options.functionKey);

  router.use(PREFIXES, limiter);
  router.use(openApiRouter(options.definition));
  if (options.metrics) router.use(metricsRouter(options.metrics, keyed));
  router.use(['/api/management', '/api/trigger'], keyed);
  router.use('/api/management', exportRouter(options));
  router.use(triggerRouter(options.deps));
  router.use(translateErrors);
  return router;
}
