import { SendFailure } from './connector.ts';

/** How long one call to a vendor's API may take. */
const CALL_TIMEOUT_MS = 10_000;

/** Who is called, for the failure: `name` starts its message, `endpoint` is the method or resource. */
export interface VendorCallee {
  readonly name: string;
  readonly endpoint: string;
  /** Takes the credentials out of a text that may hold them (a URL with a token in its path). */
  readonly redact?: (text: string) => string;
}

/** A vendor's answer: the response for its status and headers, and its body as a JSON object. */
export interface VendorAnswer<B> {
  readonly response: Response;
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
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name);
    throw new SendFailure(
      'transient',
      'network',
      `${callee.name} could not be reached (${callee.redact ? callee.redact(cause) : cause})`,
      undefined,
      callee.endpoint,
    );
  }
  const text = await response.text().catch(() => '');
  let body: Partial<B> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Partial<B>;
  } catch {
    // Not JSON: classified by its status alone.
  }
  return { response, body };
}

/** A refusal's text for its failure: the vendor's message (else the status), no credential in it, 300 characters at most. */
export function refusalText(callee: VendorCallee, message: unknown, response: Response): string {
  const text = String(message ?? `HTTP ${response.status}`);
  return `${callee.name} ${callee.endpoint}: ${(callee.redact ? callee.redact(text) : text).slice(0, 300)}`;
}

/** How long the vendor asked to wait (Retry-After, in seconds), else a second. */
export function retryAfterMs(response: Response): number {
  return Number(response.headers.get('retry-after') ?? 0) * 1000 || 1000;
}
