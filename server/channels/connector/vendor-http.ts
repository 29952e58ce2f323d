import net from 'node:net';
import tls from 'node:tls';

/**
 * # A kept-alive HTTP/1.1 POST for the vendors' APIs
 *
 * Every bot message on a channel is one call to the vendor. Measured per call on loopback (client CPU):
 * node:http's client (its request and response streams, its header checks, an Agent round) about
 * 130 µs, undici's request about 110, fetch about 350; a POST written in one piece on a kept-alive
 * socket and its answer read straight from the socket about 60. What the vendors answer is plain
 * HTTP/1.1: a status, headers, and a body framed by Content-Length, chunked, or by the end of the
 * connection. The vendor is called directly (no HTTP proxy, as before), over TLS checked against
 * Node's CA store for https URLs.
 */

/** Connections kept per vendor host (as node:http's Agent was set up): a call past them waits for one to be free. */
const MAX_SOCKETS = 64;
/** An idle connection is closed after this: vendors close theirs after a minute or so. */
const IDLE_MS = 30_000;
/** Longest status line and headers read. */
const MAX_HEAD_BYTES = 64 * 1024;

/** Where a call goes: the socket's host and port, and the request line's path and Host header. */
export interface HttpTarget {
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** The Host header: the host as in the URL, with its port when not the default. */
  readonly hostHeader: string;
  /** The URL's user and password, as Basic credentials. */
  readonly authorization?: string;
}

/** A vendor URL as a target: parsed once per URL by the caller. */
export function httpTarget(url: string): HttpTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new TypeError(`not an HTTP URL: ${parsed.protocol}`);
  const secure = parsed.protocol === 'https:';
  const credentials =
    parsed.username || parsed.password
      ? `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
      : undefined;
  return {
    secure,
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port),
    path: (parsed.pathname || '/') + parsed.search,
    hostHeader: parsed.host,
    ...(credentials === undefined ? {} : { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }),
  };
}

/** The answer: its status, its headers (names in lower case, repeated ones joined by ", "), its body (undefined past `maxBodyBytes`). */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer | undefined;
}

/** A call's failure: `code` as Node names socket errors (ECONNREFUSED, ECONNRESET) or TimeoutError. */
export type HttpFailure = Error & { code?: string; reused?: boolean };

/** How a reused connection fails when the vendor had closed it: reset, or the write went nowhere. */
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_WRITE_AFTER_END', 'ERR_STREAM_DESTROYED']);

/** A header a request may not carry: a line break would start a header (or a request) of its own. */
const UNSAFE = /[\r\n\0]/;

/**
 * POSTs `body` to the target and reads the whole answer within `timeoutMs`. A kept-alive connection
 * the vendor closed while it lay idle fails as it is reused, before any byte of an answer: that call
 * is made once more on a new connection (what node:http's Agent users are told to do).
 */
export async function httpPost(
  target: HttpTarget,
  headers: Readonly<Record<string, string>>,
  body: string,
  limits: { readonly timeoutMs: number; readonly maxBodyBytes: number },
): Promise<HttpAnswer> {
  let head = `POST ${target.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\n`;
  if (target.authorization !== undefined) head += `authorization: ${target.authorization}\r\n`;
  for (const name in headers) {
    const value = headers[name]!;
    if (UNSAFE.test(name) || UNSAFE.test(value))
      throw new TypeError(`the header ${JSON.stringify(name)} holds a line break`);
    head += `${name}: ${value}\r\n`;
  }
  const request = `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  try {
    return await poolOf(target).call(request, limits);
  } catch (error) {
    if ((error as HttpFailure).reused !== true) throw error;
    return poolOf(target).call(request, limits);
  }
}

const pools = new Map<string, Pool>();

function poolOf(target: HttpTarget): Pool {
  const key = `${target.secure ? 's' : ''}${target.host}:${target.port}`;
  let pool = pools.get(key);
  if (pool === undefined) pools.set(key, (pool = new Pool(target)));
  return pool;
}

/** One vendor host's connections: idle ones reused newest first, at most MAX_SOCKETS open. */
class Pool {
  private readonly idle: Connection[] = [];
  private readonly waiting: ((connection: Connection | undefined) => void)[] = [];
  private open = 0;

  constructor(private readonly target: HttpTarget) {}

  async call(
    request: string,
    limits: { readonly timeoutMs: number; readonly maxBodyBytes: number },
  ): Promise<HttpAnswer> {
    let connection = this.idle.pop();
    // One the vendor has just closed (its end not yet handled as a close): taken out, not used.
    while (connection !== undefined && !connection.usable) {
      connection.destroy();
      connection = this.idle.pop();
    }
    if (connection === undefined && this.open >= MAX_SOCKETS)
      connection = await new Promise<Connection | undefined>((resolve) => this.waiting.push(resolve));
    if (connection === undefined) {
      this.open++;
      connection = new Connection(this.target, (gone) => this.closed(gone));
    }
    let answer: HttpAnswer;
    try {
      answer = await connection.call(request, limits);
    } catch (error) {
      // Every failure has closed it already (or is about to): never handed to another call.
      connection.destroy();
      throw error;
    }
    if (connection.reusable) this.release(connection);
    else connection.destroy();
    return answer;
  }

  private release(connection: Connection): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(connection);
    else {
      connection.rest(IDLE_MS);
      this.idle.push(connection);
    }
  }

  /** A connection closed (by either side): its place goes to the first waiting call, as a new connection. */
  private closed(connection: Connection): void {
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    this.open--;
    this.waiting.shift()?.(undefined);
  }
}

type Framing = 'length' | 'chunked' | 'close';

/** One socket and the answer it is reading; its listeners stay for its life. */
class Connection {
  private readonly socket: net.Socket;
  private used = false;
  private pending:
    | {
        readonly resolve: (answer: HttpAnswer) => void;
        readonly reject: (error: HttpFailure) => void;
        readonly reused: boolean;
        readonly timer: NodeJS.Timeout;
      }
    | undefined;
  private received = false;
  private buffer: Buffer | undefined;
  private reader: AnswerReader | undefined;
  reusable = false;

  constructor(target: HttpTarget, closed: (connection: Connection) => void) {
    this.socket = target.secure
      ? tls.connect({
          host: target.host,
          port: target.port,
          ...(net.isIP(target.host) ? {} : { servername: target.host }),
        })
      : net.connect({ host: target.host, port: target.port });
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error: HttpFailure) => this.fail(error));
    this.socket.on('timeout', () => this.socket.destroy());
    this.socket.on('close', () => {
      if (this.reader?.framing === 'close' && this.reader.headDone) this.finish(this.reader.answer(), false);
      else this.fail(Object.assign(new Error('the connection was closed before an answer'), { code: 'ECONNRESET' }));
      closed(this);
    });
  }

  /** Idle: closed after `ms` unused, and not keeping the process alive. */
  rest(ms: number): void {
    this.socket.setTimeout(ms);
    this.socket.unref();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Still open both ways: a vendor's end of it may have come while it lay idle. */
  get usable(): boolean {
    return !this.socket.destroyed && this.socket.writable && !this.socket.readableEnded;
  }

  call(request: string, limits: { readonly timeoutMs: number; readonly maxBodyBytes: number }): Promise<HttpAnswer> {
    this.socket.setTimeout(0);
    this.socket.ref();
    this.reusable = false;
    this.received = false;
    this.buffer = undefined;
    this.reader = new AnswerReader(limits.maxBodyBytes);
    const reused = this.used;
    this.used = true;
    return new Promise<HttpAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(Object.assign(new Error('the call timed out'), { name: 'TimeoutError' }));
        this.socket.destroy();
      }, limits.timeoutMs);
      this.pending = { resolve, reject, reused, timer };
      this.socket.write(request);
    });
  }

  private read(chunk: Buffer): void {
    if (!this.pending || !this.reader) {
      // Bytes nobody asked for: the connection cannot be trusted for another call.
      this.socket.destroy();
      return;
    }
    this.received = true;
    const data = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    this.buffer = undefined;
    let outcome: ReturnType<AnswerReader['read']>;
    try {
      outcome = this.reader.read(data);
    } catch (error) {
      this.fail(Object.assign(error as Error, { code: 'HPE_INVALID' }));
      this.socket.destroy();
      return;
    }
    if (outcome === 'more') return;
    if (typeof outcome === 'object' && 'partial' in outcome) {
      this.buffer = outcome.partial;
      return;
    }
    // Bytes past the answer: nothing was asked for them.
    this.finish(this.reader.answer(), this.reader.keepAlive && outcome.rest === 0);
  }

  private finish(answer: HttpAnswer, reusable: boolean): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.reader = undefined;
    clearTimeout(pending.timer);
    this.reusable = reusable;
    pending.resolve(answer);
  }

  private fail(error: HttpFailure): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.reader = undefined;
    clearTimeout(pending.timer);
    const unanswered = error.code !== undefined && RESET.has(error.code);
    pending.reject(Object.assign(error, { reused: pending.reused && !this.received && unanswered }));
  }
}

/** Reads one answer from the bytes as they come: its head, then its body by its framing. */
class AnswerReader {
  headDone = false;
  framing: Framing = 'close';
  keepAlive = false;
  private status = 0;
  private headers = new Map<string, string>();
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  /** Body bytes still to come: of the whole body (length) or of the current chunk (chunked). */
  private left = 0;
  /** Chunked: what comes next. */
  private chunkState: 'size' | 'data' | 'data-end' | 'trailers' = 'size';

  constructor(private readonly maxBodyBytes: number) {}

  answer(): HttpAnswer {
    return {
      status: this.status,
      headers: this.headers,
      body:
        this.bytes <= this.maxBodyBytes
          ? this.chunks.length === 1
            ? this.chunks[0]!
            : Buffer.concat(this.chunks)
          : undefined,
    };
  }

  /** 'more': all taken, more to come; partial: these bytes wait for the rest of their line; rest: the answer is whole, with `rest` bytes past it. */
  read(data: Buffer): 'more' | { readonly partial: Buffer } | { readonly rest: number } {
    let at = 0;
    while (!this.headDone) {
      const end = data.indexOf('\r\n\r\n', at, 'latin1');
      if (end < 0) {
        if (data.length - at > MAX_HEAD_BYTES) throw new Error("the answer's head is too long");
        return { partial: data.subarray(at) };
      }
      this.parseHead(data.toString('latin1', at, end));
      at = end + 4;
    }
    if (this.framing === 'close') {
      this.take(data.subarray(at));
      return 'more';
    }
    if (this.framing === 'length') {
      const take = Math.min(this.left, data.length - at);
      this.take(data.subarray(at, at + take));
      this.left -= take;
      return this.left === 0 ? { rest: data.length - at - take } : 'more';
    }
    return this.readChunked(data, at);
  }

  private parseHead(text: string): void {
    const lines = text.split('\r\n');
    const status = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]!);
    if (!status) throw new Error('the answer is not HTTP/1.x');
    const code = Number(status[2]);
    // An interim answer (100 Continue): the real one follows.
    if (code >= 100 && code < 200) return;
    const headers = new Map<string, string>();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const before = headers.get(name);
      headers.set(name, before === undefined ? value : `${before}, ${value}`);
    }
    this.status = code;
    this.headers = headers;
    this.headDone = true;
    const connection = headers.get('connection')?.toLowerCase() ?? '';
    this.keepAlive = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    const length = headers.get('content-length');
    if (headers.get('transfer-encoding')?.toLowerCase().includes('chunked')) this.framing = 'chunked';
    else if (length !== undefined) {
      if (!/^\d+$/.test(length)) throw new Error("the answer's Content-Length is not a number");
      this.framing = 'length';
      this.left = Number(length);
    } else this.keepAlive = false;
    // No body, whatever the headers say.
    if (code === 204 || code === 304) {
      this.framing = 'length';
      this.left = 0;
    }
  }

  private readChunked(data: Buffer, from: number): 'more' | { readonly partial: Buffer } | { readonly rest: number } {
    let at = from;
    for (;;) {
      if (this.chunkState === 'data') {
        const take = Math.min(this.left, data.length - at);
        this.take(data.subarray(at, at + take));
        this.left -= take;
        at += take;
        if (this.left > 0) return 'more';
        this.chunkState = 'data-end';
        continue;
      }
      const end = data.indexOf('\r\n', at, 'latin1');
      if (end < 0) {
        if (data.length - at > MAX_HEAD_BYTES) throw new Error("a chunk's line is too long");
        return at === data.length ? 'more' : { partial: data.subarray(at) };
      }
      const line = data.toString('latin1', at, end);
      at = end + 2;
      if (this.chunkState === 'data-end') {
        if (line !== '') throw new Error('a chunk did not end where its size said');
        this.chunkState = 'size';
      } else if (this.chunkState === 'trailers') {
        if (line === '') return { rest: data.length - at };
      } else {
        const size = /^[0-9a-fA-F]+/.exec(line);
        if (!size) throw new Error("a chunk's size is not a number");
        this.left = parseInt(size[0], 16);
        this.chunkState = this.left === 0 ? 'trailers' : 'data';
      }
    }
  }

  private take(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.bytes += chunk.length;
    if (this.bytes <= this.maxBodyBytes) this.chunks.push(chunk);
  }
}
