import express, { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import {
  getSubscription,
  listSubscriptions,
  replaySubscription,
  resumeSubscription,
  subscribe,
  unsubscribe,
  type SubscriptionDeps,
  type SubscriptionView,
} from '../../app/manage-subscriptions.ts';
import { EVENT_KINDS } from '../../ports/event-subscriptions.ts';
import { HttpError } from '../../ports/http-error.ts';
import { methodNotAllowed } from './method-not-allowed.ts';

/** Longest target URL accepted: Zapier's and Make's hook URLs are far shorter. */
export const MAX_TARGET_URL = 2048;
/** Latest replay start: year 9999, as the exports' timestamps. */
const MAX_SECONDS = 253_402_300_799;

const targetUrl = z
  .string()
  .max(MAX_TARGET_URL, `must be at most ${MAX_TARGET_URL} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.username === '' &&
        url.password === '' &&
        url.hash === ''
      );
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without user:password@ or #fragment, e.g. https://hooks.zapier.com/hooks/catch/123/abc/');

const subscribeBody = z.strictObject({
  targetUrl,
  events: z
    .array(z.enum(EVENT_KINDS))
    .min(1, 'must name at least one event kind')
    .max(EVENT_KINDS.length)
    .refine((kinds) => new Set(kinds).size === kinds.length, 'must name each event kind once'),
  secret: z
    .string()
    .min(32, 'must be at least 32 characters')
    .max(256)
    // A signing key is typed or pasted: a control character in one is a mistake, and NUL cannot be stored
    // by every MongoDB-compatible store (PostgreSQL-backed ones refuse it).
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not hold control characters')
    .optional(),
});
const replayBody = z.strictObject({ from: z.number().int().min(0).max(MAX_SECONDS) });

/** The JSON body of a subscription request, checked: 415 for another type, 400 naming the field for a bad value. */
function parsed<T>(schema: z.ZodType<T>, req: express.Request): T {
  if (!req.is('application/json'))
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  const result = schema.safeParse(req.body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || '(body)';
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown field(s) ${(issue as { keys: string[] }).keys.join(', ')}`
      : `${field}: ${issue?.message ?? 'is invalid'}`;
  throw new HttpError(400, 'invalid_body', `The body is not a valid request: ${message}.`, { field });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A subscription as the API answers it: times as ISO 8601. */
function toJson(view: SubscriptionView) {
  return {
    id: view.id,
    targetUrl: view.targetUrl,
    events: view.events,
    status: view.status,
    createdAt: iso(view.createdAt),
    failures: view.failures,
    lastError: view.lastError,
    lastAttemptAt: iso(view.lastAttemptAt),
    lastDeliveredAt: iso(view.lastDeliveredAt),
    pausedAt: iso(view.pausedAt),
    pending: view.pending,
  };
}

/**
 * Event subscriptions (REST hooks), under /api/management, behind the function key:
 * POST /subscriptions, GET /subscriptions, GET and DELETE /subscriptions/{id},
 * POST /subscriptions/{id}/resume and /replay. The OpenAPI document describes each.
 */
export function subscriptionsRouter(deps: () => SubscriptionDeps): Router {
  const router = Router();
  const json = express.json({ limit: '16kb', strict: false });
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  router
    .route('/subscriptions')
    .post(json, noStore, async (req, res) => {
      const body = parsed(subscribeBody, req);
      const created = await subscribe(deps(), body);
      res
        .status(201)
        .location(`/api/management/subscriptions/${created.id}`)
        .json({ ...toJson(created), secret: created.secret });
    })
    .get(noStore, async (_req, res) => {
      res.json((await listSubscriptions(deps())).map(toJson));
    })
    .all(methodNotAllowed('GET, HEAD, POST'));
  router
    .route('/subscriptions/:id')
    .get(noStore, async (req, res) => {
      res.json(toJson(await getSubscription(deps(), String(req.params.id))));
    })
    .delete(async (req, res) => {
      await unsubscribe(deps(), String(req.params.id));
      res.status(204).end();
    })
    .all(methodNotAllowed('GET, HEAD, DELETE'));
  router
    .route('/subscriptions/:id/resume')
    .post(noStore, async (req, res) => {
      res.json(toJson(await resumeSubscription(deps(), String(req.params.id))));
    })
    .all(methodNotAllowed('POST'));
  router
    .route('/subscriptions/:id/replay')
    .post(json, noStore, async (req, res) => {
      const { from } = parsed(replayBody, req);
      res.status(202).json(toJson(await replaySubscription(deps(), String(req.params.id), from * 1000)));
    })
    .all(methodNotAllowed('POST'));
  return router;
}
