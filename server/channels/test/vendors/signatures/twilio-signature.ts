/**
 * Twilio's webhook signature, as a test sends it: `X-Twilio-Signature` is the base64 HMAC-SHA1, keyed
 * with the auth token, of the full public URL Twilio called followed by each POST parameter's name and
 * value, names in ASCII order (a repeated name contributes each of its values, sorted). Written from
 * the published algorithm; twilio-signature.test.ts checks it against the official library.
 */
import { createHmac } from 'node:crypto';

export const twilioSignatureHeader = 'x-twilio-signature';

export type TwilioParams = Readonly<Record<string, string | readonly string[]>>;

/** The string Twilio signs: the URL, then name+value pairs in order. */
export function twilioSigningString(url: string, params: TwilioParams): string {
  const names = Object.keys(params).sort();
  const pairs = names.flatMap((name) => {
    const value = params[name] ?? [];
    return typeof value === 'string' ? [name + value] : [...new Set(value.map((each) => name + each))].sort();
  });
  return url + pairs.join('');
}

export function signTwilioRequest(authToken: string, url: string, params: TwilioParams): string {
  return createHmac('sha1', authToken).update(twilioSigningString(url, params), 'utf8').digest('base64');
}

/** The form body Twilio posts for `params`, repeated names as repeated fields. */
export function twilioFormBody(params: TwilioParams): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    for (const each of typeof value === 'string' ? [value] : value) form.append(name, each);
  return form.toString();
}
