import { createHmac } from 'node:crypto';

/**
 * The signature of a callback: hex HMAC-SHA256, keyed with the channel's key, of
 * `timestamp + "." + body`, sent as `x-signature: sha256=<hex>` next to
 * `x-timestamp` (UNIX seconds). The receiver recomputes it over the raw body
 * and refuses old timestamps, so a captured callback cannot be replayed later.
 */
export function signCallback(key: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}
