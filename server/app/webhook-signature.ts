import { createHmac } from 'node:crypto';

/**
 * The signature of everything the bot POSTs to someone else's URL (REST channel callbacks, event
 * subscription deliveries, the sendWebhook preset): hex HMAC-SHA256, keyed with the shared
 * secret, of `timestamp + "." + body`, sent as `x-signature: sha256=<hex>` next to `x-timestamp`
 * (UNIX seconds). The receiver recomputes it over the raw body and refuses old timestamps, so a
 * captured request cannot be replayed later.
 */
export function signWebhook(key: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}
