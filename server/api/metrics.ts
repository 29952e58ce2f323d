import { Router, type RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Metrics } from '../ports/metrics.ts';
import { methodNotAllowed } from './management/method-not-allowed.ts';

export interface HttpMetrics {
  readonly registry: Registry;
  /** The port the rest of the server bumps. */
  readonly port: Metrics;
  /** Times every HTTP request; mount first. */
  readonly middleware: RequestHandler;
  /** Counts and times one answered request, for handlers outside Express (the trigger endpoint); `started` is process.hrtime.bigint() at arrival. */
  observe(method: string, route: string, status: number, started: bigint): void;
  /** Tells the connected-users gauge how to count, once the channel exists. */
  countConnectedUsers(count: () => number): void;
}

/**
 * Prometheus metrics (beyond the spec): one registry per server, so tests that
 * start several servers in one process do not share series.
 */
export function createMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'chatbot_http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'chatbot_http_request_duration_seconds',
    help: 'Time from request to the end of the response, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  let connected: () => number = () => 0;
  new Gauge({
    name: 'chatbot_connected_users',
    help: 'Users with at least one web chat widget connected to this server.',
    registers: [registry],
    collect() {
      this.set(connected());
    },
  });
  const messages = new Counter({
    name: 'chatbot_messages_total',
    help: 'Messages stored in transcripts, by sender (user or bot).',
    labelNames: ['from'] as const,
    registers: [registry],
  });
  const integrationCalls = new Counter({
    name: 'chatbot_integration_calls_total',
    help: 'Integration step calls, by step type.',
    labelNames: ['step'] as const,
    registers: [registry],
  });
  const integrationErrors = new Counter({
    name: 'chatbot_integration_errors_total',
    help: 'Integration step calls that failed, by step type.',
    labelNames: ['step'] as const,
    registers: [registry],
  });
  messages.inc({ from: 'user' }, 0);
  messages.inc({ from: 'bot' }, 0);

  const observe = (method: string, route: string, status: number, started: bigint) => {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  };
  const middleware: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    // Route patterns, never raw paths: an address or a user id in a label would grow the series without bound.
    res.on('finish', () => observe(req.method, req.route ? `${req.baseUrl}${String(req.route.path)}` : 'other', res.statusCode, started));
    next();
  };

  return {
    registry,
    middleware,
    observe,
    port: {
      messagesStored: (from, count) => messages.inc({ from }, count),
      integrationCall: (step, outcome) => {
        integrationCalls.inc({ step });
        if (outcome === 'error') integrationErrors.inc({ step });
      },
    },
    countConnectedUsers(count) {
      connected = count;
    },
  };
}

/** GET /metrics in the Prometheus text format, behind the given guard (the function key). */
export function metricsRouter(metrics: HttpMetrics, guard: RequestHandler): Router {
  const router = Router();
  router
    .route('/metrics')
    .get(guard, async (_req, res) => {
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.send(await metrics.registry.metrics());
    })
    .all(guard, methodNotAllowed('GET, HEAD'));
  return router;
}
