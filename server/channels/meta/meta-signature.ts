/**
 * Meta signs every webhook of its platform (WhatsApp Cloud API, Messenger) with `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256
 * of the raw request body keyed with the app secret. The check runs over the bytes as received: a body
 * parsed and serialised again differs in spacing and escapes, and would fail for genuine requests.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header Meta sends, lower-cased as Node presents it. */
export const metaSignatureHeader = 'x-hub-signature-256';

const headerShape = /^sha256=([0-9a-f]{64})$/i;

/** True when `header` is the app secret's signature of `rawBody`; compared in constant time. */
export function isValidMetaSignature(appSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  const given = headerShape.exec(header ?? '')?.[1];
  if (given === undefined) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}
