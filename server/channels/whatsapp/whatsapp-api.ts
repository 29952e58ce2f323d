import { graphSend, redactToken, type GraphCall } from '../meta/graph-send.ts';

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

/**
 * The Cloud API's send endpoint with a system user's access token; Meta's answers are classified by
 * the Graph client (meta/graph-send.ts) with the Cloud API's codes.
 */
export function whatsAppApi(options: WhatsAppApiOptions): WhatsAppSend {
  const call: GraphCall = {
    callee: { name: 'WhatsApp', endpoint: 'messages', redact: redactToken(options.accessToken) },
    url: `${options.apiUrl}/${options.apiVersion}/${options.phoneNumberId}/messages`,
    accessToken: options.accessToken,
    userAgent: 'chatbot-whatsapp/1.0.0',
    codes: {
      rateLimit: RATE_LIMIT_CODES,
      transient: TRANSIENT_CODES,
      waitMs: (code) => (code === 131056 ? 6000 : undefined),
    },
  };
  return (message) =>
    graphSend<{ messages: { id?: string }[] }>(
      call,
      { messaging_product: 'whatsapp', recipient_type: 'individual', ...message },
      (answer) => {
        const id = answer.messages?.[0]?.id;
        return typeof id === 'string' ? id : undefined;
      },
    );
}
