import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../../ports/logger.ts';
import type { LogEntry, Store } from '../../ports/store.ts';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

export interface Upstream {
  readonly url: string;
  readonly port: number;
  readonly seen: SeenRequest[];
  /** Replaces the handler for the next requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** A real HTTP server on a free loopback port playing the customer's API; records every request. */
export async function startUpstream(handler: Handler = (_req, res) => json(res, 200, {})): Promise<Upstream> {
  let current = handler;
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      void Promise.resolve(current(request, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A temporary folder (for a real embedded store: tests open it, since adapters do not import each other). */
export async function tempDir(): Promise<{ file(name: string): string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'integrations-test-'));
  return { file: (name) => path.join(dir, name), dispose: () => rm(dir, { recursive: true, force: true }) };
}

export async function readAll(store: Store, kind: 'integrationLog' = 'integrationLog'): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for await (const entry of store.readLogs(kind, {})) out.push(entry);
  return out;
}

/** A logger that keeps every line (fields and message) as JSON text, to search for secrets. */
export function captureLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (fields: Record<string, unknown>, message: string) => {
    lines.push(JSON.stringify({ level, ...fields, msg: message }));
  };
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

/** A clock the test moves. */
export function testClock(start = Date.UTC(2026, 10, 21, 9, 0, 0)): { now(): number; advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}
