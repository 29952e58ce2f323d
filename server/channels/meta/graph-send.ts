import { SendFailure } from '../connector/connector.ts';
import { callVendor, refusalText, retryAfterMs, type VendorCallee } from '../connector/vendor-call.ts';

/** The error object of every Graph API refusal. */
export interface GraphError {
  readonly message?: string;
  readonly code?: number;
  readonly error_subcode?: number;
  readonly is_transient?: boolean;
}

/** How one Graph product reads its error codes: which ask to slow down, which pass. */
export interface GraphErrorCodes {
  readonly rateLimit: ReadonlySet<number>;
  readonly transient: ReadonlySet<number>;
  /** How long to wait for a code whose pace Meta documents (WhatsApp's pair rate); else Retry-After or a second. */
  readonly waitMs?: (code: number) => number | undefined;
}

export interface GraphCall {
  readonly callee: VendorCallee;
  readonly url: string;
  readonly accessToken: string;
  /** Meta's reference asks for a product/version User-Agent. */
  readonly userAgent: string;
  readonly codes: GraphErrorCodes;
}

/** Graph's answer to a send: the ids it gave the message. */
export type GraphAnswer<B> = Partial<B & { readonly error: GraphError }>;

/**
 * POSTs a JSON body to a Graph API send endpoint with the bearer token and classifies Meta's answer
 * for the connector core: a rate limit waits; a transient error (is_transient, 5xx, a network fault,
 * a 2xx without the id `accepted` looks for) is retried; anything else (a closed window, an
 * unreachable user, a missing permission, an expired token) is permanent. The token never reaches
 * an error message.
 */
export async function graphSend<B extends object>(
  call: GraphCall,
  body: Readonly<Record<string, unknown>>,
  accepted: (answer: GraphAnswer<B>) => string | undefined,
): Promise<string> {
  const { response, body: answer } = await callVendor<B & { readonly error: GraphError }>(call.callee, call.url, {
    headers: {
      authorization: `Bearer ${call.accessToken}`,
      'content-type': 'application/json',
      'user-agent': call.userAgent,
    },
    body: JSON.stringify(body),
  });
  const id = accepted(answer);
  if (response.ok && id !== undefined) return id;
  const error: GraphError = answer.error ?? {};
  const code = error.code ?? response.status;
  const description = refusalText(call.callee, error.message, response);
  const endpoint = call.callee.endpoint;
  if (response.status === 429 || call.codes.rateLimit.has(code))
    throw new SendFailure(
      'rate_limited',
      String(code),
      description,
      call.codes.waitMs?.(code) ?? retryAfterMs(response),
      endpoint,
    );
  if (error.is_transient === true || call.codes.transient.has(code) || response.status >= 500 || response.ok)
    throw new SendFailure('transient', String(code), description, undefined, endpoint);
  throw new SendFailure('permanent', String(code), description, undefined, endpoint);
}

/** Takes the access token out of a text that may hold it. */
export const redactToken = (accessToken: string) => (text: string) => text.split(accessToken).join('<token>');
