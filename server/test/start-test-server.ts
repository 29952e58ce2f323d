import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { io as connect, type Socket } from 'socket.io-client';
import { inject } from 'vitest';
import type {
  ClientToServerEvents,
  HandshakeAuth,
  ServerToClientEvents,
  TranscriptItem,
} from '../../shared/protocol.ts';
import { readConfig } from '../config.ts';
import { startServer, type RunningServer, type StartOptions } from '../main.ts';

/**
 * The stores a server-level test runs on: the embedded SQLite store always, and
 * the Mongo-compatible test server when the run has one (see scripts/vitest-global-setup.ts).
 * Each entry gives the env that selects it; every Mongo test server gets a database of its own.
 */
export function storeLegs(): { name: string; skip: string; env: () => Record<string, string> }[] {
  const mongoUrl = inject('mongoUrl');
  return [
    { name: 'sqlite', skip: '', env: () => ({}) },
    {
      name: 'mongo',
      skip: mongoUrl ? '' : inject('mongoSkipReason') || 'no Mongo-compatible server',
      env: () => ({ MONGODB_URL: `${mongoUrl.replace(/\/$/, '')}/server_${process.pid}_${++databases}` }),
    },
  ];
}
let databases = 0;

/** A fixed key for tests, so the server does not generate and print one each time. */
export const TEST_FUNCTION_KEY = 'test-function-key-0123456789abcdef';

export type TestClient = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface TestServer extends RunningServer {
  readonly dataDir: string;
  /** Every log line the server wrote, parsed. */
  readonly logs: Record<string, unknown>[];
  /** The raw log text, for searching for secrets. */
  logText(): string;
  stop(): Promise<void>;
}

/** Starts the real server on a free loopback port with its own data folder and captured logs; `options` may give it a clock of the test's. */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir?: string,
  options: Omit<StartOptions, 'logDestination'> = {},
): Promise<TestServer> {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'chatbot-test-')));
  const logs: Record<string, unknown>[] = [];
  let raw = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString();
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const server = await startServer(
    readConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'info', BOT_FUNCTION_KEY: TEST_FUNCTION_KEY, ...env }),
    { ...options, logDestination: sink },
  );
  return Object.assign(server, {
    dataDir: dir,
    logs,
    logText: () => raw,
    async stop() {
      await server.close();
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  });
}

/** A real socket.io client, as the widget uses it; collects every transcript item it receives. */
export function connectClient(url: string, auth: HandshakeAuth = {}): TestClient & { items: TranscriptItem[] } {
  const socket = connect(url, { auth: { ...auth }, transports: ['websocket'], reconnection: false, forceNew: true });
  const items: TranscriptItem[] = [];
  socket.on('entries', (entries) => items.push(...entries));
  return Object.assign(socket, { items });
}

/** Resolves once `predicate` holds, polling briefly; rejects with `what` after the timeout. */
export async function eventually<T>(
  what: string,
  read: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function botTexts(items: readonly TranscriptItem[]): string[] {
  return items
    .filter((i) => i.from === 'bot')
    .map((i) => (i.message.type === 'text' ? i.message.text : `<${i.message.type}>`));
}
