import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Signed session tokens: the server issues a user id and a token that proves
 * the holder got that id from us, so nobody can read another user's
 * conversation by guessing or copying an id.
 */
export class SessionTokens {
  constructor(private readonly secret: string) {}

  issue(): { userId: string; token: string } {
    const userId = randomUUID();
    return { userId, token: this.sign(userId) };
  }

  sign(userId: string): string {
    return createHmac('sha256', this.secret).update(`webchat-session:${userId}`).digest('base64url');
  }

  verify(userId: string, token: string): boolean {
    const expected = Buffer.from(this.sign(userId));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
