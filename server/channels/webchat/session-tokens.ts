import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** What a presented token turns out to be. */
export type TokenCheck =
  /** Signed by us and not expired; `legacy` for a token from before tokens carried an expiry. */
  | { readonly status: 'valid'; readonly legacy: boolean }
  /** Signed by us, but past its expiry (or a legacy token whose secret has been rotated out). */
  | { readonly status: 'expired' }
  /** Not ours, or altered. */
  | { readonly status: 'invalid' };

export interface SessionTokenOptions {
  /** SESSION_SECRET: signs every new token. */
  readonly secret: string;
  /** SESSION_SECRET_PREVIOUS: still accepted for tokens it signed, until they expire, so a rotation logs no one out. */
  readonly previousSecret?: string | undefined;
  /** How long a token lives from its issue (SESSION_TTL); each connect issues a fresh one, so the lifetime slides. */
  readonly ttlMs: number;
  /** UNIX epoch milliseconds. */
  readonly now: () => number;
}

const VERSION = 'v2';

/**
 * Signed session tokens: the server issues a user id and a token that proves
 * the holder got that id from us, so nobody can read another user's
 * conversation by guessing or copying an id. A token is
 * `v2.<expiry in UNIX seconds>.<HMAC-SHA256 of user id and expiry>`, so a
 * copied token stops working by itself and the secret can be rotated.
 *
 * Tokens from before the expiry (a bare HMAC of the user id) are accepted under
 * the current secret only and replaced on that connect: a deploy logs no one
 * out, and the next rotation retires them.
 */
export class SessionTokens {
  private readonly secrets: readonly string[];

  constructor(private readonly options: SessionTokenOptions) {
    this.secrets = options.previousSecret ? [options.secret, options.previousSecret] : [options.secret];
  }

  /** A new user id with its token. */
  issue(): { userId: string; token: string } {
    const userId = randomUUID();
    return { userId, token: this.sign(userId) };
  }

  /** A fresh token for a user, valid for the configured lifetime from now. */
  sign(userId: string): string {
    const expires = Math.floor((this.options.now() + this.options.ttlMs) / 1000);
    return `${VERSION}.${expires}.${mac(this.options.secret, userId, expires)}`;
  }

  check(userId: string, token: string): TokenCheck {
    const parts = token.split('.');
    if (parts.length === 1) return this.checkLegacy(userId, token);
    const [version, expiresText, given] = parts;
    if (parts.length !== 3 || version !== VERSION || !/^\d{1,12}$/.test(expiresText ?? '') || !given)
      return { status: 'invalid' };
    const expires = Number(expiresText);
    // Every secret is tried, so the time taken does not tell which one (if any) matched.
    const signed = this.secrets.map((secret) => same(mac(secret, userId, expires), given)).includes(true);
    if (!signed) return { status: 'invalid' };
    return this.options.now() < expires * 1000 ? { status: 'valid', legacy: false } : { status: 'expired' };
  }

  private checkLegacy(userId: string, token: string): TokenCheck {
    if (same(legacyMac(this.options.secret, userId), token)) return { status: 'valid', legacy: true };
    // Genuine but signed with a secret that has since been rotated out: over, like an expired one.
    if (this.options.previousSecret && same(legacyMac(this.options.previousSecret, userId), token))
      return { status: 'expired' };
    return { status: 'invalid' };
  }
}

function mac(secret: string, userId: string, expires: number): string {
  return createHmac('sha256', secret).update(`webchat-session:${VERSION}:${userId}:${expires}`).digest('base64url');
}

/** The token format before expiry: HMAC of the user id alone. */
function legacyMac(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(`webchat-session:${userId}`).digest('base64url');
}

function same(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
