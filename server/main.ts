import { mkdir } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Server } from 'socket.io';
import { createApp } from './api/create-app.ts';
import type { AppDeps } from './app/deps.ts';
import { KeyedQueue } from './app/keyed-queue.ts';
import { attachWebchat, socketDelivery, type ChatServer } from './channels/webchat/socket-server.ts';
import { SessionTokens } from './channels/webchat/session-tokens.ts';
import { ConfigError, readConfig, type Config } from './config.ts';
import { DefinitionError, loadDefinition } from './definition/load.ts';
import { createLogger } from './logger.ts';
import { projectRoot } from './paths.ts';
import { systemClock, type Clock } from './ports/clock.ts';
import type { Store } from './ports/store.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { persistentSecret } from './secrets.ts';
import { openMongoStore } from './stores/mongo/mongo-store.ts';
import { openSqliteStore } from './stores/sqlite/sqlite-store.ts';

export interface RunningServer {
  /** Base URL the server answers on, e.g. http://127.0.0.1:3000. */
  readonly url: string;
  readonly store: Store;
  readonly io: ChatServer;
  readonly jobs: JobRunner;
  readonly functionKey: string;
  close(): Promise<void>;
}

export interface StartOptions {
  readonly clock?: Clock;
  /** Where log lines go; stdout when omitted. */
  readonly logDestination?: NodeJS.WritableStream;
}

/** The composition root: the only place that knows which store, clock and channel are real. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(config.LOG_LEVEL, options.logDestination);
  const definition = await loadDefinition(config.BOT_DEFINITION);
  const dataDir = path.resolve(config.DATA_DIR);
  const store = await openStore(config, dataDir);

  const functionKey = await persistentSecret(dataDir, 'function-key', config.BOT_FUNCTION_KEY);
  if (functionKey.generated) {
    // Shown once, on the start that generated it, and never logged afterwards.
    process.stderr.write(`Generated a function key for the management API (kept in ${dataDir}): ${functionKey.value}\n`);
  }
  const sessionSecret = await persistentSecret(dataDir, 'session', config.SESSION_SECRET);

  const root = projectRoot();
  const app = createApp({
    store,
    logger,
    widgetDir: path.join(root, 'dist'),
    demoDir: path.join(root, 'demo', 'public'),
  });
  const http = createServer(app);
  const io: ChatServer = new Server(http, {
    // allowRequest below already refuses other origins; CORS only echoes an allowed one.
    cors: { origin: true, credentials: false },
    maxHttpBufferSize: 64 * 1024,
    allowRequest: (req, callback) => callback(null, originAllowed(config, req.headers.origin, req.headers.host)),
  });
  const clock = options.clock ?? systemClock;
  const jobs = new JobRunner({ store, clock, logger });
  const deps: AppDeps = {
    definition,
    store,
    clock,
    delivery: socketDelivery(io),
    logger,
    scheduler: jobs,
    turns: new KeyedQueue(),
  };
  attachWebchat(io, deps, new SessionTokens(sessionSecret.value), logger);

  await listen(http, config.PORT, config.HOST);
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  jobs.start();
  logger.info({ event: 'started', url, bot: definition.settings.id, store: config.MONGODB_URL ? 'mongo' : 'sqlite' }, 'server started');

  let closing: Promise<void> | undefined;
  return {
    url,
    store,
    io,
    jobs,
    functionKey: functionKey.value,
    close() {
      closing ??= (async () => {
        await jobs.stop();
        await io.close();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        await store.close();
        logger.info({ event: 'stopped' }, 'server stopped');
      })();
      return closing;
    },
  };
}

async function openStore(config: Config, dataDir: string): Promise<Store> {
  if (config.MONGODB_URL) return openMongoStore({ url: config.MONGODB_URL });
  // A fresh checkout has no data folder yet; the embedded store makes its own.
  await mkdir(dataDir, { recursive: true });
  return openSqliteStore({ file: path.join(dataDir, 'chatbot.sqlite') });
}

/**
 * ALLOWED_ORIGINS unset: the page must come from this server or from localhost,
 * which is what a newcomer running the demo needs and nothing more.
 */
function originAllowed(config: Config, origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true; // not a browser page (server-to-server, tests)
  if (config.ALLOWED_ORIGINS) return config.ALLOWED_ORIGINS.some((allowed) => new URL(allowed).origin === origin);
  try {
    const { hostname, host: originHost } = new URL(origin);
    return originHost === host || hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
  } catch {
    return false;
  }
}

function listen(http: HttpServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
}

/** Run from the command line: start, stop cleanly on SIGINT/SIGTERM, and fail fast with one clear line. */
async function main(): Promise<void> {
  try {
    const server = await startServer(readConfig(process.env));
    process.stdout.write(`Chatbot is running at ${server.url}\n`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    process.stderr.write(`${startupMessage(error)}\n`);
    process.exit(1);
  }
}

function startupMessage(error: unknown): string {
  if (error instanceof ConfigError) return `Configuration error: ${error.message}`;
  if (error instanceof DefinitionError) return error.message;
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    return `Cannot start: the port is already in use (${(error as Error).message}). Set PORT to a free port.`;
  }
  return `Cannot start: ${(error as Error).message ?? String(error)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
