import { SendFailure } from '../connector/connector.ts';
import { callVendor } from '../connector/vendor-call.ts';
import type { BotToken } from './bot-token.ts';
import { serviceUrlAllowed, type ServiceUrlRule } from '../../settings/service-urls.ts';

/** Teams throttles per conversation and answers these when it wants the bot to slow down or try again. */
const PASSING = new Set([412, 429, 502, 503, 504]);
/** Without a Retry-After, a throttled send waits this long (the core's backoff then grows for other passing faults). */
const THROTTLE_WAIT_MS = 2_000;

/** An activity the bot sends (the Connector API's Activity, the fields this connector uses). */
export interface OutgoingActivity {
  readonly type: 'message';
  readonly text?: string;
  readonly textFormat?: 'plain';
  /** How several attachments show: side by side (a card set), else one under another. */
  readonly attachmentLayout?: 'carousel';
  readonly attachments?: readonly { readonly contentType: string; readonly content: unknown }[];
  readonly suggestedActions?: { readonly actions: readonly unknown[] };
}

/** Sends an activity to a conversation at a serviceUrl; throws a SendFailure. */
export type SendActivity = (serviceUrl: string, conversationId: string, activity: OutgoingActivity) => Promise<void>;

/**
 * The Connector API's SendToConversation (`POST {serviceUrl}/v3/conversations/{id}/activities`),
 * with the bot's token. The serviceUrl must be an allowed origin, checked here, right before the
 * token leaves, over the connectors' vendor client (vendor-call.ts: a fetch cost about six times its CPU a
 * message). Answers are classified for the connector core: 429 and Teams' 412/502/503/504 are passing (429
 * waits its Retry-After), a redirect is passing, a refused token is asked for again, other 4xx are permanent.
 */
export function connectorApi(token: BotToken, serviceUrls: readonly ServiceUrlRule[]): SendActivity {
  return async (serviceUrl, conversationId, activity) => {
    if (!serviceUrlAllowed(serviceUrl, serviceUrls)) {
      throw new SendFailure(
        'permanent',
        'service_url_not_allowed',
        `the conversation's serviceUrl (${originOf(serviceUrl)}) is not among BOTFRAMEWORK_SERVICE_URLS; the bot's token is not sent there`,
        undefined,
        'activities',
      );
    }
    const bearer = await token.get();
    const url = `${serviceUrl.replace(/\/+$/, '')}/v3/conversations/${encodeURIComponent(conversationId)}/activities`;
    // A redirect is not followed (the token stays with the allowed origin): as a passing fault, like no answer.
    const { response, body: said } = await callVendor<{ error: { code?: unknown; message?: unknown } }>(
      { name: `the Bot Framework at ${originOf(serviceUrl)}`, endpoint: 'activities' },
      url,
      {
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(activity),
      },
    );
    if (response.ok) return;
    const code = typeof said.error?.code === 'string' ? said.error.code.slice(0, 64) : String(response.status);
    const message = `the Bot Framework answered ${response.status} ${code}${typeof said.error?.message === 'string' ? `: ${said.error.message.slice(0, 200)}` : ''}`;
    if (response.status >= 300 && response.status < 400)
      throw new SendFailure('transient', String(response.status), message, undefined, 'activities');
    const retryAfterMs = retryAfter(response.headers.get('retry-after'));
    if (response.status === 429 || (PASSING.has(response.status) && retryAfterMs !== undefined)) {
      throw new SendFailure(
        'rate_limited',
        String(response.status),
        message,
        retryAfterMs ?? THROTTLE_WAIT_MS,
        'activities',
      );
    }
    if (PASSING.has(response.status) || response.status >= 500)
      throw new SendFailure('transient', String(response.status), message, undefined, 'activities');
    if (response.status === 401) {
      // The token may have been revoked or the app's password changed: the next attempt asks for a new one.
      token.forget(bearer);
      throw new SendFailure('transient', '401', message, undefined, 'activities');
    }
    throw new SendFailure('permanent', String(response.status), message, undefined, 'activities');
  };
}

/** Retry-After as seconds or an HTTP date, in ms (capped at an hour); undefined when absent or unreadable. */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = /^\d{1,6}$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0) * 1000, 3_600_000) : undefined;
}

/** The scheme and host of a URL, for messages (never its path or query). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}
