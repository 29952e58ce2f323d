import { Router } from 'express';
import type { Store } from '../ports/store.ts';
import { errorBody } from './errors.ts';

export interface Readiness {
  /** Cluster mode: resolves when Redis answers. */
  readonly redis?: () => Promise<void>;
  /** Cluster mode: the nodes alive as this one last saw them. */
  readonly nodes?: () => number;
  /** True once the server is shutting down: the balancer must stop sending traffic at once. */
  readonly draining?: () => boolean;
}

/**
 * /healthz: the process is up. /readyz: the store answers and the server is not shutting
 * down, so traffic may be sent here. In cluster mode it reports Redis too, but Redis away
 * answers 200 `degraded`, not 503: every node loses Redis at once, and taking them all out
 * of the balancer would stop a service Redis only speeds up (the store holds everything;
 * limits fall back to each node's share, and widgets get their entries on reconnect).
 */
export function healthRouter(store: Store, readiness: Readiness = {}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (readiness.draining?.()) {
      res.status(503).json({
        status: 'unavailable',
        ...errorBody('shutting_down', 'This server is shutting down; send traffic to another one.'),
      });
      return;
    }
    try {
      await store.ping();
    } catch {
      res.status(503).json({
        status: 'unavailable',
        ...errorBody('store_unreachable', 'The store does not answer; check the database.'),
      });
      return;
    }
    if (readiness.redis) {
      try {
        await readiness.redis();
      } catch {
        res.json({
          status: 'degraded',
          store: 'reachable',
          redis: 'unreachable',
          nodes: readiness.nodes?.(),
          message:
            'Redis does not answer: live delivery across nodes waits for reconnects and each node limits requests alone. Check REDIS_URL and that Redis runs.',
        });
        return;
      }
    }
    res.json({
      status: 'ready',
      store: 'reachable',
      ...(readiness.redis ? { redis: 'reachable', nodes: readiness.nodes?.() } : {}),
    });
  });
  return router;
}
