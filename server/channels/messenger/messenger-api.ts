import { graphSend, redactToken, type GraphCall } from '../meta/graph-send.ts';

/**
 * Graph error codes that mean "slow down" (Messenger Platform error codes): 4 (application request
 * limit), 17 (user request limit), 32 (page request limit), 613 (calls exceeded the rate limit).
 */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
/** Codes Meta documents as passing: 1 and 2 (temporary), 1200 (temporary send message failure). */
const TRANSIENT_CODES = new Set([1, 2, 1200]);

export interface MessengerApiOptions {
  /** The page access token (a secret): it speaks for the page. */
  readonly pageAccessToken: string;
  /** https://graph.facebook.com, or a stand-in in tests (MESSENGER_API_URL). */
  readonly apiUrl: string;
  /** The Graph API version in the path, e.g. v23.0. */
  readonly apiVersion: string;
}

/** Sends one Send API body (recipient, messaging_type, message); resolves with Meta's message id. */
export type MessengerSend = (body: Readonly<Record<string, unknown>>) => Promise<string>;

/**
 * The Send API (`POST /{version}/me/messages`, "me" being the page the token speaks for), the token
 * in the Authorization header rather than the URL. Permanent refusals (10 outside the window, 551
 * the person is unavailable, 200 a missing permission, 100 an invalid parameter) are not retried.
 */
export function messengerApi(options: MessengerApiOptions): MessengerSend {
  const call: GraphCall = {
    callee: { name: 'Messenger', endpoint: 'me/messages', redact: redactToken(options.pageAccessToken) },
    url: `${options.apiUrl}/${options.apiVersion}/me/messages`,
    accessToken: options.pageAccessToken,
    userAgent: 'chatbot-messenger/1.0.0',
    codes: { rateLimit: RATE_LIMIT_CODES, transient: TRANSIENT_CODES },
  };
  return (body) =>
    graphSend<{ message_id: string }>(call, body, (answer) =>
      typeof answer.message_id === 'string' ? answer.message_id : undefined,
    );
}
