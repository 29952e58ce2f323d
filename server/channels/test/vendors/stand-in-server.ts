/**
 * The HTTP shell every vendor stand-in shares: a real server on loopback (port 0) that reads the raw
 * request, hands it to the vendor's checks and keeps a log of what it accepted and what it refused.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a stand-in sees of one request. */
export interface StandInRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
}

export interface StandInAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One entry of a stand-in's log: the request as the vendor would have kept it, and the answer. */
export interface StandInLogEntry<Accepted> {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The parsed request for an accepted one; absent when the request was refused. */
  readonly accepted?: Accepted;
  /** Why the request was refused, one line per rule of the reference it broke. */
  readonly problems: readonly string[];
}

/** What a vendor's stand-in decides about one request. */
export type StandInVerdict<Accepted> =
  | { readonly kind: 'accepted'; readonly accepted: Accepted; readonly answer: StandInAnswer }
  | { readonly kind: 'refused'; readonly problems: readonly string[]; readonly answer: StandInAnswer };

export interface RunningStandIn<Accepted> {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Every request in arrival order. */
  readonly log: readonly StandInLogEntry<Accepted>[];
  /** The accepted requests' parsed bodies in arrival order: what the user would have received. */
  accepted(): Accepted[];
  close(): Promise<void>;
}

/** The media type of a Content-Type header, without parameters such as charset. */
export function mediaType(header: unknown): string {
  return (
    String(header ?? '')
      .split(';', 1)[0]
      ?.trim()
      .toLowerCase() ?? ''
  );
}

/** Vendors cap request bodies well below this; a bigger one is a client bug worth a loud refusal. */
const maxBodyBytes = 4 * 1024 * 1024;

export async function startStandIn<Accepted>(
  decide: (request: StandInRequest) => StandInVerdict<Accepted> | Promise<StandInVerdict<Accepted>>,
): Promise<RunningStandIn<Accepted>> {
  const log: StandInLogEntry<Accepted>[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const request: StandInRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        rawBody: Buffer.concat(chunks),
      };
      const answered =
        size > maxBodyBytes
          ? Promise.resolve<StandInVerdict<Accepted>>({
              kind: 'refused',
              problems: ['the body is over 4 MB'],
              answer: { status: 413, body: { error: 'too large' } },
            })
          : Promise.resolve().then(() => decide(request));
      answered.then(
        (verdict) => {
          log.push({
            method: request.method,
            path: request.path,
            status: verdict.answer.status,
            problems: verdict.kind === 'refused' ? verdict.problems : [],
            ...(verdict.kind === 'accepted' ? { accepted: verdict.accepted } : {}),
          });
          outgoing.writeHead(verdict.answer.status, { 'content-type': 'application/json', ...verdict.answer.headers });
          outgoing.end(JSON.stringify(verdict.answer.body));
        },
        (error: unknown) => {
          // A stand-in's own bug must fail the test that hit it, not look like a vendor answer.
          log.push({
            method: request.method,
            path: request.path,
            status: 599,
            problems: [`the stand-in failed: ${String(error)}`],
          });
          outgoing.writeHead(599, { 'content-type': 'text/plain' });
          outgoing.end(`The stand-in failed: ${String(error)}`);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    accepted: () => log.flatMap((entry) => (entry.accepted === undefined ? [] : [entry.accepted])),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Scripted failures a test queues before the requests that should meet them: first in, first out. */
export class FailureScript<Kind extends string> {
  private readonly queued: Kind[] = [];

  /** The next `times` requests that pass every check meet `kind` instead of success. */
  failNext(kind: Kind, times = 1): void {
    for (let index = 0; index < times; index += 1) this.queued.push(kind);
  }

  take(): Kind | undefined {
    return this.queued.shift();
  }
}
