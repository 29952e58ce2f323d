import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { SendFailure } from './connector.ts';

/** How long one call to a vendor's API may take. */
const CALL_TIMEOUT_MS = 10_000;
/** A vendor's answer to a send is a few hundred bytes; past this it is not read on (and classified by its status). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Keep-alive: every bot message is a call, so a TCP (and TLS) handshake per call would cost more
 * than the turn. node:http rather than fetch: fetch's streams and abort signals cost about three
 * times the CPU of the call itself (bench/channel-turn.ts).
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** Most vendor URLs whose parsed form is kept: a connector calls a handful (its methods), each with every message. */
const MAX_TARGETS = 256;
/** Each vendor URL called so far, as the request options it parses to: parsing it again per call cost a tenth of the call. */
const targets = new Map<string, Target>();

/** A vendor URL as node:http takes it, and whether it is called over TLS. */
interface Target {
  readonly secure: boolean;
  readonly options: Readonly<http.RequestOptions>;
}

function targetOf(url: string): Target {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    const options: http.RequestOptions = {
      protocol: parsed.protocol,
      hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: parsed.port === '' ? undefined : Number(parsed.port),
      path: parsed.pathname + parsed.search,
      ...(parsed.username || parsed.password
        ? { auth: `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}` }
        : {}),
    };
    target = { secure: parsed.protocol === 'https:', options };
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/** Who is called, for the failure: `name` starts its message, `endpoint` is the method or resource. */
export interface VendorCallee {
  readonly name: string;
  readonly endpoint: string;
  /** Takes the credentials out of a text that may hold them (a URL with a token in its path). */
  readonly redact?: (text: string) => string;
}

/** What a connector reads of a vendor's HTTP answer besides its body. */
export interface VendorResponse {
  readonly status: number;
  /** A 2xx status. */
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
}

/** A vendor's answer: the response for its status and headers, and its body as a JSON object. */
export interface VendorAnswer<B> {
  readonly response: VendorResponse;
  /** Empty when the body is not a JSON object (a proxy's HTML page): the status alone classifies it then. */
  readonly body: Partial<B>;
}

/**
 * POSTs to a vendor's API within the call's deadline and reads the whole answer. A call that never
 * got an answer (refused, reset, timed out) is a passing SendFailure; classifying an answer is the
 * vendor's own business.
 */
export async function callVendor<B extends object>(
  callee: VendorCallee,
  url: string,
  init: { readonly headers: Readonly<Record<string, string>>; readonly body: string | URLSearchParams },
): Promise<VendorAnswer<B>> {
  const payload = Buffer.from(typeof init.body === 'string' ? init.body : init.body.toString());
  let answer: { readonly response: VendorResponse; readonly text: string };
  try {
    answer = await post(targetOf(url), init.headers, payload);
  } catch (error) {
    const cause = String((error as { code?: string }).code ?? (error as Error).name);
    throw new SendFailure(
      'transient',
      'network',
      `${callee.name} could not be reached (${callee.redact ? callee.redact(cause) : cause})`,
      undefined,
      callee.endpoint,
    );
  }
  let body: Partial<B> = {};
  try {
    const parsed: unknown = JSON.parse(answer.text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Partial<B>;
  } catch {
    // Not JSON: classified by its status alone.
  }
  return { response: answer.response, body };
}

/**
 * One POST. A kept-alive connection the vendor closed while it lay idle fails as it is reused,
 * before anything was answered: that call is made once more on a new connection (Node's advice
 * for keep-alive agents, `request.reusedSocket`).
 */
async function post(
  url: Target,
  headers: Readonly<Record<string, string>>,
  payload: Buffer,
): Promise<{ readonly response: VendorResponse; readonly text: string }> {
  try {
    return await postOnce(url, headers, payload);
  } catch (error) {
    if ((error as { reused?: boolean }).reused !== true) throw error;
    return postOnce(url, headers, payload);
  }
}

function postOnce(
  url: Target,
  headers: Readonly<Record<string, string>>,
  payload: Buffer,
): Promise<{ readonly response: VendorResponse; readonly text: string }> {
  const client = url.secure ? https : http;
  const agent = url.secure ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = client.request(
      { ...url.options, method: 'POST', agent, headers: { ...headers, 'content-length': String(payload.length) } },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            response: responseOf(res),
            text: bytes <= MAX_ANSWER_BYTES ? Buffer.concat(chunks).toString('utf8') : '',
          });
        });
        res.on('error', fail);
        // Cut off before its end (the deadline, a reset): no 'end' comes.
        res.on('close', () => {
          if (!res.complete) fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(Object.assign(new Error('the call timed out'), { name: 'TimeoutError' })),
      CALL_TIMEOUT_MS,
    );
    function fail(error: Error & { code?: string }) {
      clearTimeout(timer);
      reject(Object.assign(error, { reused: request.reusedSocket && error.code === 'ECONNRESET' && !answered }));
    }
    request.on('error', fail);
    request.end(payload);
  });
}

function responseOf(res: IncomingMessage): VendorResponse {
  const status = res.statusCode ?? 0;
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: {
      get(name) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

/** A refusal's text for its failure: the vendor's message (else the status), no credential in it, 300 characters at most. */
export function refusalText(callee: VendorCallee, message: unknown, response: VendorResponse): string {
  const text = String(message ?? `HTTP ${response.status}`);
  return `${callee.name} ${callee.endpoint}: ${(callee.redact ? callee.redact(text) : text).slice(0, 300)}`;
}

/** How long the vendor asked to wait (Retry-After, in seconds), else a second. */
export function retryAfterMs(response: VendorResponse): number {
  return Number(response.headers.get('retry-after') ?? 0) * 1000 || 1000;
}
