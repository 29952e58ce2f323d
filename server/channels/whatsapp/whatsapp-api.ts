import { SendFailure } from '../connector/connector.ts';
import { callVendor, refusalText, retryAfterMs } from '../connector/vendor-call.ts';

/**
 * Graph error codes that mean "slow down": 4 (application request limit), 80007 (account rate limit),
 * 130429 (the number's throughput), 131048 (spam rate limit), 131056 (too many messages to one user:
 * Meta allows about one every six seconds to the same person), 133016 (registration rate limit).
 */
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056, 133016]);
/** Codes Meta documents as passing: 1 and 2 (temporary), 131000 (something went wrong), 131016 (service overloaded). */
const TRANSIENT_CODES = new Set([1, 2, 131000, 131016]);

export interface WhatsAppApiOptions {
  readonly accessToken: string;
  readonly phoneNumberId: string;
  /** https://graph.facebook.com, or a stand-in in tests (WHATSAPP_API_URL). */
  readonly apiUrl: string;
  /** The Graph API version in the path, e.g. v23.0. */
  readonly apiVersion: string;
}

/** Sends one message object (the body of POST /{version}/{phone-number-id}/messages); resolves with Meta's message id. */
export type WhatsAppSend = (message: Readonly<Record<string, unknown>>) => Promise<string>;

interface GraphError {
  readonly message?: string;
  readonly code?: number;
  readonly error_subcode?: number;
  readonly is_transient?: boolean;
}

/**
 * The Cloud API's send endpoint with a system user's access token. Meta's answers are classified for
 * the connector core: a rate limit waits; a transient error (is_transient, 5xx, network) is retried;
 * anything else (a closed 24-hour window, an undeliverable number, an invalid parameter, an expired
 * token) is permanent. The token never reaches an error message.
 */
export function whatsAppApi(options: WhatsAppApiOptions): WhatsAppSend {
  const url = `${options.apiUrl}/${options.apiVersion}/${options.phoneNumberId}/messages`;
  const endpoint = 'messages';
  const callee = {
    name: 'WhatsApp',
    endpoint,
    redact: (text: string) => text.split(options.accessToken).join('<token>'),
  };
  return async (message) => {
    const { response, body } = await callVendor<{ messages: { id?: string }[]; error: GraphError }>(callee, url, {
      // Meta's reference asks for a product/version User-Agent.
      headers: {
        authorization: `Bearer ${options.accessToken}`,
        'content-type': 'application/json',
        'user-agent': 'chatbot-whatsapp/1.0.0',
      },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...message }),
    });
    const id = body.messages?.[0]?.id;
    if (response.ok && typeof id === 'string') return id;
    const error = body.error ?? {};
    const code = error.code ?? response.status;
    const description = refusalText(callee, error.message, response);
    if (response.status === 429 || RATE_LIMIT_CODES.has(code)) {
      throw new SendFailure(
        'rate_limited',
        String(code),
        description,
        code === 131056 ? 6000 : retryAfterMs(response),
        endpoint,
      );
    }
    if (
      error.is_transient === true ||
      TRANSIENT_CODES.has(code) ||
      response.status >= 500 ||
      (response.ok && id === undefined)
    ) {
      throw new SendFailure('transient', String(code), description, undefined, endpoint);
    }
    throw new SendFailure('permanent', String(code), description, undefined, endpoint);
  };
}
