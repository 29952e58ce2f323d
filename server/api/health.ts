import { Router } from 'express';
import type { Store } from '../ports/store.ts';
import { errorBody } from './errors.ts';

/** /healthz: the process is up. /readyz: the store answers, so traffic may be sent here. */
export function healthRouter(store: Store): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await store.ping();
      res.json({ status: 'ready', store: 'reachable' });
    } catch {
      res.status(503).json({ status: 'unavailable', ...errorBody('store_unreachable', 'The store does not answer; check the database.') });
    }
  });
  return router;
}
