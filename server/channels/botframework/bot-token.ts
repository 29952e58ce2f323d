import { SendFailure } from '../connector/connector.ts';

/** What the token is for: the Bot Framework's Connector API. */
const SCOPE = 'https://api.botframework.com/.default';
/** A token is used until this long before it expires, then a new one is asked for. */
const RENEW_BEFORE_MS = 5 * 60_000;
const FETCH_TIMEOUT_MS = 10_000;

export interface BotTokenOptions {
  readonly appId: string;
  readonly appPassword: string;
  readonly tokenUrl: string;
  readonly now: () => number;
}

/** The bot's access token for the Connector API; `forget` drops a token the API refused. */
export interface BotToken {
  get(): Promise<string>;
  forget(token: string): void;
}

/**
 * The bot's own token (OAuth client credentials: its app id and password), kept until shortly
 * before it expires; concurrent sends share one request for it. Its failures are SendFailures
 * whose messages hold the service's error code only, never the password or a token.
 */
export function botToken(options: BotTokenOptions): BotToken {
  let held: { readonly token: string; readonly renewAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const ask = async (): Promise<string> => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.appId,
      client_secret: options.appPassword,
      scope: SCOPE,
    });
    let response: Response;
    try {
      response = await fetch(options.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (error) {
      throw new SendFailure(
        'transient',
        'network',
        `the Bot Framework token service could not be reached (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name})`,
        undefined,
        'token',
      );
    }
    const answer = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!response.ok || typeof answer.access_token !== 'string') {
      const code = typeof answer.error === 'string' ? answer.error.slice(0, 64) : `HTTP ${response.status}`;
      // A wrong app id or password is the operator's to fix: the message waits through the retries meanwhile.
      throw new SendFailure(
        'transient',
        String(response.status),
        `the Bot Framework token service refused the bot's credentials (${code}); check BOTFRAMEWORK_APP_ID and BOTFRAMEWORK_APP_PASSWORD`,
        undefined,
        'token',
      );
    }
    const lifetimeMs =
      (typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600) * 1000;
    held = {
      token: answer.access_token,
      renewAt: options.now() + Math.max(lifetimeMs - RENEW_BEFORE_MS, lifetimeMs / 2),
    };
    return answer.access_token;
  };
  return {
    async get() {
      if (held && options.now() < held.renewAt) return held.token;
      pending ??= ask().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    forget(token) {
      if (held?.token === token) held = undefined;
    },
  };
}
