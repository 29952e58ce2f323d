import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Identity verification: the host page's backend computes
 * `userHash = HMAC-SHA256(BOT_IDENTITY_SECRET, userId)` (hex) for its own user id,
 * so only that backend can let a browser act as that user. With a phone number the site
 * verified (BOT_IDENTITY_LINK_PHONE), the hash is over `userId + "\n" + phone`: a browser
 * cannot add a number to an identity signed without one. A user id holds no control
 * character (the handshake schema refuses one), so no signed user id reads as an id and a number.
 */
export function userHashFor(secret: string, userId: string, phone?: string): string {
  return createHmac('sha256', secret)
    .update(phone === undefined ? userId : `${userId}\n${phone}`)
    .digest('hex');
}

export function identityVerified(
  secret: string,
  identity: { readonly userId: string; readonly userHash: string; readonly phone?: string | undefined },
): boolean {
  const expected = Buffer.from(userHashFor(secret, identity.userId, identity.phone));
  const given = Buffer.from(identity.userHash.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
