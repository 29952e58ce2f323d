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

type Labels = Readonly<Record<string, string>>;

/** What the scrape-time gauges read: set once the channel and the job runner exist. */
interface Watched {
  connected: () => number;
  sources?: MetricSources;
}

/** A gauge's values at one scrape, one per label set. */
type Reading = ReadonlyArray<readonly [Labels, number]>;

interface SeriesShape {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
}

/**
 * One series the server exports. Counters may start at 0 for label sets that must show before their first event;
 * gauges are read at each scrape.
 */
type SeriesSpec =
  | (SeriesShape & { readonly type: 'counter'; readonly zeros?: readonly Labels[] })
  | (SeriesShape & { readonly type: 'histogram'; readonly buckets: readonly number[] })
  | (SeriesShape & { readonly type: 'gauge'; readonly read: (watched: Watched) => Reading | Promise<Reading> });

const HTTP_LABELS = ['method', 'route', 'status'];
const STEP_LABELS = ['step', 'service'];

/** Seconds a due entry has waited past `since`, never negative. */
const ageSeconds = (now: number, since: number) => Math.max(0, now - since) / 1000;

/** The series, declared once, in the order /metrics lists them; the keys are what createMetrics bumps. */
const SERIES = {
  requests: {
    type: 'counter',
    name: 'chatbot_http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: HTTP_LABELS,
  },
  latency: {
    type: 'histogram',
    name: 'chatbot_http_request_duration_seconds',
    help: 'Time from request to the end of the response, by method, route and status.',
    labelNames: HTTP_LABELS,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  },
  connectedUsers: {
    type: 'gauge',
    name: 'chatbot_connected_users',
    help: 'Users with at least one web chat widget connected to this server.',
    read: (watched) => [[{}, watched.connected()]],
  },
  messages: {
    type: 'counter',
    name: 'chatbot_messages_total',
    help: 'Messages stored in transcripts, by sender (user or bot).',
    labelNames: ['from'],
    zeros: [{ from: 'user' }, { from: 'bot' }],
  },
  integrationCalls: {
    type: 'counter',
    name: 'chatbot_integration_calls_total',
    help: 'Integration step calls, by step type and service (the definition\'s service, or "none").',
    labelNames: STEP_LABELS,
  },
  integrationErrors: {
    type: 'counter',
    name: 'chatbot_integration_errors_total',
    help: 'Integration step calls that failed, by step type and service.',
    labelNames: STEP_LABELS,
  },
  integrationDuration: {
    type: 'histogram',
    name: 'chatbot_integration_call_duration_seconds',
    help: 'Integration step calls by step type, service and status (ok, or the failure kind: timeout, http_status, network, …).',
    labelNames: [...STEP_LABELS, 'status'],
    buckets: WORK_BUCKETS,
  },
  turns: {
    type: 'histogram',
    name: 'chatbot_turn_duration_seconds',
    help: 'Dialog turns from their input to their messages handed to the channel, by input kind (text, press, start, timer, integrationResult, …).',
    labelNames: ['input'],
    buckets: WORK_BUCKETS,
  },
  jobAttempts: {
    type: 'counter',
    name: 'chatbot_job_attempts_total',
    help: 'Job attempts by kind and outcome: done, retry (failed, will run again) or dead (failed for good).',
    labelNames: ['kind', 'outcome'],
  },
  rateLimited: {
    type: 'counter',
    name: 'chatbot_rate_limited_total',
    help: 'Requests and web chat messages refused by a rate limit, by scope (management, channels, webchat).',
    labelNames: ['scope'],
    zeros: [{ scope: 'management' }, { scope: 'channels' }, { scope: 'webchat' }],
  },
  socketConnects: {
    type: 'counter',
    name: 'chatbot_socket_connects_total',
    help: 'Web chat sockets connected (after the handshake was accepted).',
  },
  socketDisconnects: {
    type: 'counter',
    name: 'chatbot_socket_disconnects_total',
    help: 'Web chat sockets disconnected, by socket.io reason.',
    labelNames: ['reason'],
  },
  jobsDue: {
    type: 'gauge',
    name: 'chatbot_jobs_due',
    help: 'Jobs due and waiting to run, by kind: the queue depth.',
    labelNames: ['kind'],
    read: async ({ sources }) => (sources ? await sources.dueJobs() : []).map((due) => [{ kind: due.kind }, due.count]),
  },
  jobsOldestDueAge: {
    type: 'gauge',
    name: 'chatbot_jobs_oldest_due_age_seconds',
    help: 'How long the oldest due job of each kind has waited past its time: the queue age.',
    labelNames: ['kind'],
    read: async ({ sources }) => {
      if (!sources) return [];
      const now = sources.now();
      return (await sources.dueJobs()).map((due) => [{ kind: due.kind }, ageSeconds(now, due.oldestRunAt)]);
    },
  },
  datasetAge: {
    type: 'gauge',
    name: 'chatbot_dataset_age_seconds',
    help: 'Time since each background dataset last changed; absent for a dataset never loaded.',
    labelNames: ['dataset'],
    read: async ({ sources }) => {
      if (!sources) return [];
      const now = sources.now();
      return (await sources.datasets()).flatMap((dataset): Reading =>
        dataset.updatedAt === null ? [] : [[{ dataset: dataset.name }, ageSeconds(now, dataset.updatedAt)]],
      );
    },
  },
} as const satisfies Record<string, SeriesSpec>;

type Made<S extends SeriesSpec> = S['type'] extends 'counter'
  ? Counter
  : S['type'] extends 'histogram'
    ? Histogram
    : Gauge;

/** Registers one declared series; a gauge reads its values at each scrape. */
function makeSeries(registry: Registry, spec: SeriesSpec, watched: Watched): Counter | Histogram | Gauge {
  const shape = { name: spec.name, help: spec.help, labelNames: [...(spec.labelNames ?? [])], registers: [registry] };
  switch (spec.type) {
    case 'counter': {
      const counter = new Counter(shape);
      for (const labels of spec.zeros ?? []) counter.inc(labels, 0);
      return counter;
    }
    case 'histogram':
      return new Histogram({ ...shape, buckets: [...spec.buckets] });
    case 'gauge':
      return new Gauge({
        ...shape,
        async collect() {
          let reading: Reading;
          try {
            reading = await spec.read(watched);
          } catch {
            // A store that does not answer shows in /readyz; the scrape still serves the other series.
            reading = [];
          }
          this.reset();
          for (const [labels, value] of reading) this.set(labels, value);
        },
      });
  }
}

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
  const watched: Watched = { connected: () => 0 };
  const series = Object.fromEntries(
    Object.entries(SERIES).map(([key, spec]) => [key, makeSeries(registry, spec, watched)]),
  ) as { readonly [K in keyof typeof SERIES]: Made<(typeof SERIES)[K]> };
  const { requests, latency, messages, integrationCalls, integrationErrors, integrationDuration, turns } = series;
  const {
    jobAttempts,
    rateLimited: rateLimitedCount,
    socketConnects: connects,
    socketDisconnects: disconnects,
  } = series;

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
      watched.connected = count;
    },
    watch(given) {
      watched.sources = given;
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
