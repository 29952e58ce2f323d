import { SendFailure } from '../connector/connector.ts';
import { callVendor } from '../connector/vendor-call.ts';

/**
 * Slack's error codes (HTTP 200, `ok: false`) that pass: Slack's own trouble. Every other code is
 * about the request or the workspace (`channel_not_found`, `not_in_channel`, `is_archived`,
 * `invalid_blocks`, `msg_too_long`, `invalid_auth`, `token_revoked`, `account_inactive` …), which the
 * same request meets again: not retried.
 */
const PASSING = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

export interface SlackApiOptions {
  /** The bot token (`xoxb-…`): sent as a Bearer header, never in a URL. */
  readonly token: string;
  /** https://slack.com/api, or a stand-in in tests (SLACK_API_URL). */
  readonly apiUrl: string;
}

/** A Web API call: resolves with Slack's answer when `ok`, or throws a SendFailure naming Slack's error code. */
export type SlackCall = (method: string, params: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;

/**
 * The Web API (`POST {apiUrl}/{method}`, JSON, Bearer token). Slack answers most errors with HTTP
 * 200 and `{ ok: false, error }`, so success is `ok: true`, never the status alone. 429 (and
 * `ratelimited`) waits for `Retry-After`; the passing codes, 5xx and network faults are retried;
 * everything else is permanent. No error holds the token.
 */
export function slackApi(options: SlackApiOptions): SlackCall {
  return async (method, params) => {
    const { response, body } = await callVendor<Record<string, unknown>>(
      { name: `Slack ${method}`, endpoint: method },
      `${options.apiUrl}/${method}`,
      {
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(params),
      },
    );
    if (response.ok && body.ok === true) return body;
    const code = typeof body.error === 'string' ? body.error.slice(0, 100) : `HTTP ${response.status}`;
    const detail = Array.isArray((body.response_metadata as { messages?: unknown } | undefined)?.messages)
      ? ` (${(body.response_metadata as { messages: unknown[] }).messages.map(String).join('; ').slice(0, 300)})`
      : '';
    const message = `Slack ${method}: ${code}${detail}`;
    if (response.status === 429 || code === 'ratelimited' || code === 'rate_limited') {
      const seconds = Number(response.headers.get('retry-after'));
      throw new SendFailure(
        'rate_limited',
        code === `HTTP ${response.status}` ? '429' : code,
        message,
        (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000,
        method,
      );
    }
    if (response.status >= 500 || PASSING.has(code))
      throw new SendFailure('transient', code, message, undefined, method);
    throw new SendFailure('permanent', code, message, undefined, method);
  };
}
