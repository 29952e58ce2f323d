import { SendFailure } from './connector.ts';
import { httpPost, httpTarget, type HttpTarget } from './vendor-http.ts';

/** How long one call to a vendor's API may take. */
const CALL_TIMEOUT_MS = 10_000;
/** A vendor's answer to a send is a few hundred bytes; past this it is not read on (and classified by its status). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Most vendor URLs whose parsed form is kept: a connector calls a handful (its methods), each with every message. */
const MAX_TARGETS = 256;
/** Each vendor URL called so far, as the target it parses to: parsing it again per call cost a tenth of the call. */
const targets = new Map<string, HttpTarget>();

function targetOf(url: string): HttpTarget {
  let target = targets.get(url);
  if (target === undefined) {
    target = httpTarget(url);
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
  let answer: { readonly response: VendorResponse; readonly text: string };
  try {
    const sent = await httpPost(
      targetOf(url),
      init.headers,
      typeof init.body === 'string' ? init.body : init.body.toString(),
      {
        timeoutMs: CALL_TIMEOUT_MS,
        maxBodyBytes: MAX_ANSWER_BYTES,
      },
    );
    const { status, headers } = sent;
    answer = {
      response: {
        status,
        ok: status >= 200 && status < 300,
        headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
      },
      text: sent.body === undefined ? '' : sent.body.toString('utf8'),
    };
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

/** A refusal's text for its failure: the vendor's message (else the status), no credential in it, 300 characters at most. */
export function refusalText(callee: VendorCallee, message: unknown, response: VendorResponse): string {
  const text = String(message ?? `HTTP ${response.status}`);
  return `${callee.name} ${callee.endpoint}: ${(callee.redact ? callee.redact(text) : text).slice(0, 300)}`;
}

/** How long the vendor asked to wait (Retry-After, in seconds), else a second. */
export function retryAfterMs(response: VendorResponse): number {
  return Number(response.headers.get('retry-after') ?? 0) * 1000 || 1000;
}
