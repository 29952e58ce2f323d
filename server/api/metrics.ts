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
  /** Where the job queue and dataset gauges read from at each scrape. */
  watch(sources: MetricSources): void;
  /** A web chat socket connected, or disconnected for `reason` (socket.io's fixed set of reasons). */
  socketConnected(): void;
  socketDisconnected(reason: string): void;
}

export interface MetricSources {
  /** Due jobs by kind with the oldest runAt (Store.dueJobs). */
  readonly dueJobs: () => Promise<
    ReadonlyArray<{ readonly kind: string; readonly count: number; readonly oldestRunAt: number }>
  >;
  /** The bot's background datasets and when each last changed (null: never loaded). */
  readonly datasets: () => Promise<ReadonlyArray<{ readonly name: string; readonly updatedAt: number | null }>>;
  readonly now: () => number;
}

/** What chatbot_build_info says. */
export interface BuildInfo {
  /** The package version (package.json). */
  readonly version: string;
  /** The store in use: sqlite or mongo. */
  readonly store: 'sqlite' | 'mongo';
}

/**
 * A readable, bounded route label for a route matched by a regular expression (the widget's
 * assets): the path with content hashes and a locale written as placeholders, e.g.
 * /widget.{hash}.js or /widget.{locale}.{hash}.json; "other" for anything unexpected.
 */
export function readableRoute(path: string): string {
  const named = path
    .replace(/\.[0-9a-f]{8,64}(?=\.)/g, '.{hash}')
    .replace(/^\/widget\.[a-z]{2,3}(?=\.\{hash\})/, '/widget.{locale}');
  return /^[\w./{}-]{1,80}$/.test(named) ? named : 'other';
}

/** Seconds-scale buckets for work that waits on people's networks: 5 ms to 30 s. */
const WORK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** socket.io's disconnect reasons; anything else is counted as "other" so the label stays bounded. */
const DISCONNECT_REASONS = new Set([
  'transport close',
  'transport error',
  'ping timeout',
  'parse error',
  'forced close',
  'server namespace disconnect',
  'client namespace disconnect',
  'server shutting down',
  'forced server close',
]);

/**
 * Prometheus metrics (beyond the spec): one registry per server, so tests that
 * start several servers in one process do not share series.
 */
export function createMetrics(build?: BuildInfo): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (build) {
    // The Prometheus convention: a constant 1 whose labels say what runs, to join other series on.
    new Gauge({
      name: 'chatbot_build_info',
      help: 'Always 1: the chatbot version this process runs, on which Node.js, with which store.',
      labelNames: ['version', 'node_version', 'store'] as const,
      registers: [registry],
    }).set({ version: build.version, node_version: process.version, store: build.store }, 1);
  }
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
    help: 'Integration step calls, by step type and service (the definition\'s service, or "none").',
    labelNames: ['step', 'service'] as const,
    registers: [registry],
  });
  const integrationErrors = new Counter({
    name: 'chatbot_integration_errors_total',
    help: 'Integration step calls that failed, by step type and service.',
    labelNames: ['step', 'service'] as const,
    registers: [registry],
  });
  messages.inc({ from: 'user' }, 0);
  messages.inc({ from: 'bot' }, 0);
  const integrationDuration = new Histogram({
    name: 'chatbot_integration_call_duration_seconds',
    help: 'Integration step calls by step type, service and status (ok, or the failure kind: timeout, http_status, network, …).',
    labelNames: ['step', 'service', 'status'] as const,
    buckets: WORK_BUCKETS,
    registers: [registry],
  });
  const turns = new Histogram({
    name: 'chatbot_turn_duration_seconds',
    help: 'Dialog turns from their input to their messages handed to the channel, by input kind (text, press, start, timer, integrationResult, …).',
    labelNames: ['input'] as const,
    buckets: WORK_BUCKETS,
    registers: [registry],
  });
  const jobAttempts = new Counter({
    name: 'chatbot_job_attempts_total',
    help: 'Job attempts by kind and outcome: done, retry (failed, will run again) or dead (failed for good).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const rateLimitedCount = new Counter({
    name: 'chatbot_rate_limited_total',
    help: 'Requests and web chat messages refused by a rate limit, by scope (management, channels, webchat).',
    labelNames: ['scope'] as const,
    registers: [registry],
  });
  for (const scope of ['management', 'channels', 'webchat']) rateLimitedCount.inc({ scope }, 0);
  const connects = new Counter({
    name: 'chatbot_socket_connects_total',
    help: 'Web chat sockets connected (after the handshake was accepted).',
    registers: [registry],
  });
  const disconnects = new Counter({
    name: 'chatbot_socket_disconnects_total',
    help: 'Web chat sockets disconnected, by socket.io reason.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  let sources: MetricSources | undefined;
  const read = async <T>(what: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await what();
    } catch {
      // A store that does not answer shows in /readyz; the scrape still serves the other series.
      return undefined;
    }
  };
  new Gauge({
    name: 'chatbot_jobs_due',
    help: 'Jobs due and waiting to run, by kind: the queue depth.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const due of (sources && (await read(sources.dueJobs))) ?? []) this.set({ kind: due.kind }, due.count);
    },
  });
  new Gauge({
    name: 'chatbot_jobs_oldest_due_age_seconds',
    help: 'How long the oldest due job of each kind has waited past its time: the queue age.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!sources) return;
      const now = sources.now();
      for (const due of (await read(sources.dueJobs)) ?? [])
        this.set({ kind: due.kind }, Math.max(0, now - due.oldestRunAt) / 1000);
    },
  });
  new Gauge({
    name: 'chatbot_dataset_age_seconds',
    help: 'Time since each background dataset last changed; absent for a dataset never loaded.',
    labelNames: ['dataset'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!sources) return;
      const now = sources.now();
      for (const dataset of (await read(sources.datasets)) ?? []) {
        if (dataset.updatedAt !== null)
          this.set({ dataset: dataset.name }, Math.max(0, now - dataset.updatedAt) / 1000);
      }
    },
  });

  const observe = (method: string, route: string, status: number, started: bigint, path: string = route) => {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    if (status === 429) rateLimitedCount.inc({ scope: path.startsWith('/api/channels') ? 'channels' : 'management' });
  };
  const middleware: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    // Route patterns, never raw paths: an address or a user id in a label would grow the series without bound.
    res.on('finish', () => {
      const pattern: unknown = req.route?.path;
      const route =
        pattern === undefined
          ? 'other'
          : typeof pattern === 'string'
            ? `${req.baseUrl}${pattern}`
            : readableRoute(`${req.baseUrl}${req.path}`);
      observe(req.method, route, res.statusCode, started, req.originalUrl);
    });
    next();
  };

  return {
    registry,
    middleware,
    observe,
    port: {
      messagesStored: (from, count) => messages.inc({ from }, count),
      integrationCall: ({ step, service }, outcome, detail) => {
        integrationCalls.inc({ step, service });
        if (outcome === 'error') integrationErrors.inc({ step, service });
        if (detail) integrationDuration.observe({ step, service, status: detail.status }, detail.seconds);
      },
      turnCompleted: (input, seconds) => turns.observe({ input }, seconds),
      jobAttempt: (kind, outcome) => jobAttempts.inc({ kind, outcome }),
      rateLimited: (scope) => rateLimitedCount.inc({ scope }),
    },
    countConnectedUsers(count) {
      connected = count;
    },
    watch(given) {
      sources = given;
    },
    socketConnected: () => connects.inc(),
    socketDisconnected: (reason) => disconnects.inc({ reason: DISCONNECT_REASONS.has(reason) ? reason : 'other' }),
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
