/**
 * Twilio signs every webhook with `X-Twilio-Signature`: the base64 HMAC-SHA1, keyed with the auth token,
 * of the URL Twilio called followed by each POST parameter's name and value, names in ASCII order (a
 * repeated name adds each distinct value, sorted). The URL is the PUBLIC one Twilio was given, never the
 * one this server sees behind a proxy (http, another host, another port).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header Twilio sends, lower-cased as Node presents it. */
export const twilioSignatureHeader = 'x-twilio-signature';

export type TwilioWebhookParams = Readonly<Record<string, string | readonly string[]>>;

function signingString(url: string, params: TwilioWebhookParams): string {
  const pairs = Object.keys(params)
    .sort()
    .flatMap((name) => {
      const value = params[name] ?? [];
      return typeof value === 'string' ? [name + value] : [...new Set(value)].sort().map((each) => name + each);
    });
  return url + pairs.join('');
}

/**
 * The URL as Twilio may have signed it: exactly as configured, and with the scheme's default port added
 * or removed (Twilio signs `https://host/path` for some requests and `https://host:443/path` for others).
 */
function urlForms(publicUrl: string): string[] {
  const match = /^(https?:\/\/)([^/?#]*)(.*)$/i.exec(publicUrl);
  if (!match) return [publicUrl];
  const [, scheme = '', authority = '', rest = ''] = match;
  const defaultPort = scheme.toLowerCase() === 'https://' ? ':443' : ':80';
  const host = authority.endsWith(defaultPort) ? authority.slice(0, -defaultPort.length) : authority;
  const withoutPort = scheme + host + rest;
  return /:\d+$/.test(host) ? [publicUrl] : [withoutPort, scheme + host + defaultPort + rest];
}

export interface TwilioSignatureCheck {
  readonly authToken: string;
  /** The full public URL of the webhook (PUBLIC_URL + the route + any query string Twilio was given). */
  readonly publicUrl: string;
  /** The POST parameters as received (form fields; a repeated name as a list). */
  readonly params: TwilioWebhookParams;
  readonly signature: string | undefined;
}

/** True when the signature is the auth token's signature of the public URL and parameters; constant time. */
export function isValidTwilioSignature(check: TwilioSignatureCheck): boolean {
  if (!check.signature) return false;
  const given = Buffer.from(check.signature);
  return urlForms(check.publicUrl).some((url) => {
    const expected = Buffer.from(
      createHmac('sha1', check.authToken).update(signingString(url, check.params), 'utf8').digest('base64'),
    );
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
