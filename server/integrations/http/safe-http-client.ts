import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { OutboundRequest, OutboundResponse } from '../../ports/outbound-gate.ts';
import { DestinationPolicy, type DestinationPolicyOptions } from './destination-policy.ts';
import { IntegrationError } from './integration-error.ts';

// One request and one response shape for every outbound call, whether a preview's gate holds it or not.
export type HttpRequest = OutboundRequest;
export type HttpResponse = OutboundResponse;

export interface SafeHttpClientOptions extends DestinationPolicyOptions {
  readonly defaultTimeoutMs?: number;
  readonly defaultMaxBytes?: number;
  readonly defaultMaxRedirects?: number;
}

/** Defaults: a synchronous step waits at most 5 s; 1 MiB is far above any chat-sized answer; 3 redirects. */
export const HTTP_DEFAULTS = { timeoutMs: 5000, maxBytes: 1024 * 1024, maxRedirects: 3 } as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * THE outbound HTTP client of every integration: per-call deadline, response
 * size cap, redirect limit with each hop re-checked, and destination checks on
 * the resolved addresses (see DestinationPolicy). Any status comes back as a
 * response; what counts as an error is the step type's business. Throws
 * IntegrationError of kind network, timeout, too_large, redirect or
 * forbidden_destination.
 */
export class SafeHttpClient {
  private readonly policy: DestinationPolicy;
  private closed = false;
  // Keep-alive: a synchronous step should not pay a TCP handshake per call.
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };

  constructor(private readonly options: SafeHttpClientOptions = {}) {
    this.policy = new DestinationPolicy(options);
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = request.timeoutMs ?? this.options.defaultTimeoutMs ?? HTTP_DEFAULTS.timeoutMs;
    const maxBytes = request.maxBytes ?? this.options.defaultMaxBytes ?? HTTP_DEFAULTS.maxBytes;
    const maxRedirects = request.maxRedirects ?? this.options.defaultMaxRedirects ?? HTTP_DEFAULTS.maxRedirects;
    const deadline = performance.now() + timeoutMs;
    let url = parseUrl(request.url);
    let method = request.method.toUpperCase();
    let body = request.body;
    let headers: Record<string, string> = lowerKeys(request.headers ?? {});
    for (let hop = 0; ; hop++) {
      const answer = await this.once(url, method, headers, body, deadline - performance.now(), timeoutMs, maxBytes);
      if (!('location' in answer)) return answer;
      if (hop >= maxRedirects) {
        throw new IntegrationError(
          'redirect',
          `The call to ${url.host} was redirected more than ${maxRedirects} times; call the final address directly.`,
        );
      }
      const next = parseUrl(new URL(answer.location, url).href, 'redirect');
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
        delete headers['content-length'];
      }
      if (next.origin !== url.origin) {
        // Credentials were meant for the first host only.
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)));
      }
      url = next;
    }
  }

  /** Why a call to `url` would be refused by the destination rules (see DestinationPolicy.refusal), or undefined. */
  refusal(url: string): Promise<IntegrationError | undefined> {
    return this.policy.refusal(url);
  }

  /** Frees pooled sockets; call on shutdown. Calls still running fail as `cancelled`, never as the upstream's network failure. */
  close(): void {
    this.closed = true;
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  private once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    remainingMs: number,
    timeoutMs: number,
    maxBytes: number,
  ): Promise<HttpResponse | { status: number; location: string }> {
    this.policy.checkHost(url.hostname);
    const timedOut = () => new IntegrationError('timeout', `${url.host} did not answer within ${timeoutMs} ms.`);
    if (remainingMs <= 0) return Promise.reject(timedOut());
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (error: unknown, value?: HttpResponse | { status: number; location: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          req.destroy();
          reject(
            this.closed
              ? new IntegrationError(
                  'cancelled',
                  `The call to ${url.host} was cut short: this server is shutting down.`,
                )
              : classify(error, url),
          );
        } else resolve(value!);
      };
      const protocol = url.protocol as 'http:' | 'https:';
      const client = protocol === 'https:' ? https : http;
      const req = client.request(
        url,
        {
          method,
          headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: this.agents[protocol],
          lookup: this.policy.lookupFor(url.hostname),
        },
        (res: IncomingMessage) => {
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (REDIRECTS.has(status) && location) {
            res.resume();
            return settle(undefined, { status, location });
          }
          const tooLarge = () =>
            new IntegrationError(
              'too_large',
              `The answer from ${url.host} is larger than ${maxBytes} bytes, the most an integration accepts.`,
            );
          if (Number(res.headers['content-length'] ?? 0) > maxBytes) return settle(tooLarge());
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) settle(tooLarge());
            else chunks.push(chunk);
          });
          res.on('end', () =>
            settle(undefined, { status, headers: flatten(res.headers), body: Buffer.concat(chunks), url: url.href }),
          );
          res.on('error', (error) => settle(error));
          res.on('aborted', () => settle(new Error('the connection closed mid-answer')));
        },
      );
      const timer = setTimeout(() => settle(timedOut()), remainingMs);
      req.on('error', (error) => settle(error));
      req.end(body);
    });
  }
}

function parseUrl(value: string, kind: 'network' | 'redirect' = 'network'): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new IntegrationError(kind, `"${value.slice(0, 200)}" is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new IntegrationError(kind, `Integrations call http:// or https:// addresses only, not ${url.protocol}//.`);
  }
  return url;
}

function classify(error: unknown, url: URL): IntegrationError {
  if (error instanceof IntegrationError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ECONNREFUSED'
      ? 'refused the connection'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'could not be found in DNS'
        : code === 'ECONNRESET'
          ? 'closed the connection'
          : `could not be reached (${code ?? (error as Error).message})`;
  return new IntegrationError(
    'network',
    `${url.host} ${reason}; check that the service is up and the address is right.`,
  );
}

function lowerKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function flatten(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
