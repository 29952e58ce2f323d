import { SendFailure } from '../connector/connector.ts';
import { callVendor } from '../connector/vendor-call.ts';

export interface TelegramApiOptions {
  readonly token: string;
  /** https://api.telegram.org, or a stand-in in tests (TELEGRAM_API_URL). */
  readonly apiUrl: string;
}

/** A Bot API call: resolves with its `result`, or throws a SendFailure that never holds the token. */
export type TelegramCall = (method: string, params: Readonly<Record<string, unknown>>) => Promise<unknown>;

/** The text with the bot token, and any `/bot<…>/` path, taken out: the token sits in every Bot API URL. */
export function redactToken(text: string, token: string): string {
  return text
    .split(token)
    .join('<token>')
    .replace(/\/bot[^/\s]+\//g, '/bot<token>/');
}

/**
 * The Bot API (`POST {apiUrl}/bot{token}/{method}`, JSON). Its answers are classified for the
 * connector core: 429 waits `parameters.retry_after`; 403 (the user blocked the bot) and the other
 * 4xx are permanent; 5xx and network faults are passing. The token is in the URL path, so no URL
 * and no error of the HTTP stack is passed on as it is.
 */
export function telegramApi(options: TelegramApiOptions): TelegramCall {
  const base = `${options.apiUrl}/bot${options.token}/`;
  return async (method, params) => {
    const { response, body } = await callVendor<{
      ok: boolean;
      result: unknown;
      error_code: number;
      description: string;
      parameters: { retry_after?: number };
    }>(
      { name: `Telegram ${method}`, endpoint: method, redact: (text) => redactToken(text, options.token) },
      base + method,
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) },
    );
    if (response.ok && body.ok === true) return body.result;
    const code = body.error_code ?? response.status;
    const description = redactToken(String(body.description ?? `HTTP ${response.status}`).slice(0, 300), options.token);
    if (code === 429)
      throw new SendFailure(
        'rate_limited',
        '429',
        `Telegram ${method}: ${description}`,
        Math.max(1, body.parameters?.retry_after ?? 1) * 1000,
        method,
      );
    if (code >= 400 && code < 500)
      throw new SendFailure('permanent', String(code), `Telegram ${method}: ${description}`, undefined, method);
    throw new SendFailure('transient', String(code), `Telegram ${method}: ${description}`, undefined, method);
  };
}
