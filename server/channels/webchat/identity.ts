import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Identity verification: the host page's backend computes
 * `userHash = HMAC-SHA256(BOT_IDENTITY_SECRET, userId)` (hex) for its own user id,
 * so only that backend can let a browser act as that user.
 */
export function userHashFor(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId).digest('hex');
}

export function identityVerified(secret: string, userId: string, userHash: string): boolean {
  const expected = Buffer.from(userHashFor(secret, userId));
  const given = Buffer.from(userHash.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
