import { SendFailure } from '../connector/connector.ts';
import { callVendor, refusalText, retryAfterMs } from '../connector/vendor-call.ts';

/** Twilio codes that mean "slow down": 20429 (too many requests), 14107 (outbound SMS rate limit). */
const RATE_LIMIT_CODES = new Set([20429, 14107]);

export interface TwilioApiOptions {
  readonly accountSid: string;
  readonly authToken: string;
  /** https://api.twilio.com, or a stand-in in tests (TWILIO_API_URL). */
  readonly apiUrl: string;
}

/** What a message carries: a body, media addresses or a content template, the sender, where its statuses go. */
export interface TwilioMessage {
  readonly To: string;
  readonly From: string;
  readonly Body?: string;
  readonly MediaUrl?: readonly string[];
  /** An approved content template (WhatsApp outside its 24-hour window) in place of Body, and its variables as a JSON object. */
  readonly ContentSid?: string;
  readonly ContentVariables?: string;
  readonly StatusCallback?: string;
}

/** What Twilio answered: the message's SID and how many SMS segments it costs. */
export interface TwilioSent {
  readonly sid: string;
  readonly segments: number;
}

export type TwilioSend = (message: TwilioMessage) => Promise<TwilioSent>;

/**
 * Twilio's create-message endpoint with the account's SID and auth token (Basic). Its answers are
 * classified for the connector core: 429 and 20429 wait (Retry-After when sent); 5xx and network
 * faults are passing; any other refusal (21610 the number opted out, 21211 not a number, 21408 a
 * region not enabled) is permanent. The token never reaches an error message.
 */
export function twilioApi(options: TwilioApiOptions): TwilioSend {
  const url = `${options.apiUrl}/2010-04-01/Accounts/${options.accountSid}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const endpoint = 'Messages';
  const callee = { name: 'Twilio', endpoint, redact: (text: string) => text.split(options.authToken).join('<token>') };
  return async (message) => {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(message)) {
      for (const each of Array.isArray(value) ? (value as string[]) : [value as string | undefined])
        if (each !== undefined) form.append(name, each);
    }
    const { response, body } = await callVendor<{ sid: string; num_segments: string; code: number; message: string }>(
      callee,
      url,
      {
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
      },
    );
    if (response.ok && typeof body.sid === 'string')
      return { sid: body.sid, segments: Number(body.num_segments ?? 1) || 1 };
    const code = body.code ?? response.status;
    const description = refusalText(callee, body.message, response);
    if (response.status === 429 || RATE_LIMIT_CODES.has(code)) {
      throw new SendFailure('rate_limited', String(code), description, retryAfterMs(response), endpoint);
    }
    if (response.status >= 500 || response.ok)
      throw new SendFailure('transient', String(code), description, undefined, endpoint);
    throw new SendFailure('permanent', String(code), description, undefined, endpoint);
  };
}
