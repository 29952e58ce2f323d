/**
 * Meta's webhook signature, as a test sends it: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the
 * raw body, keyed with the app secret>` (WhatsApp Cloud API and Messenger webhooks). Written from the
 * published algorithm, apart from the connector's own check, so a test of that check is not circular.
 */
import { createHmac } from 'node:crypto';

export const metaSignatureHeader = 'x-hub-signature-256';

/** The header value for `rawBody` exactly as it goes on the wire. */
export function signMetaBody(appSecret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
