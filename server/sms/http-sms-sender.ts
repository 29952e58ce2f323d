import type { SmsSender } from '../ports/sms-sender.ts';

export interface HttpSmsOptions {
  /** The provider's send endpoint, e.g. https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json. */
  readonly url: string;
  /** Basic auth user (Twilio: the account SID) and password (the auth token), from the environment. */
  readonly username?: string;
  readonly password?: string;
  /** The sender number or name (form field `From`). */
  readonly from: string;
  readonly timeoutMs?: number;
}

/**
 * SMS through a Twilio-style HTTP API: a form-encoded POST of To, From and
 * Body with Basic auth; any 2xx is accepted. Errors name the status, never
 * the credentials.
 */
export function createHttpSmsSender(options: HttpSmsOptions): SmsSender {
  const endpoint = new URL(options.url);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (options.username !== undefined || options.password !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${options.username ?? ''}:${options.password ?? ''}`).toString('base64')}`;
  }
  return {
    provider: `http:${endpoint.host}`,
    async send({ to, text }) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ To: to, From: options.from, Body: text }),
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw new Error(`the SMS provider ${endpoint.host} could not be reached (${(error as Error).message})`);
      }
      if (!response.ok) {
        const detail = (await response.text().catch(() => '')).slice(0, 200);
        throw new Error(`the SMS provider ${endpoint.host} answered ${response.status}${detail ? `: ${detail}` : ''}`);
      }
      await response.body?.cancel().catch(() => undefined);
    },
  };
}
