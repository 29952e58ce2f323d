import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { HttpError } from '../../ports/http-error.ts';

/** Who signs the Bot Framework's requests to a bot. */
export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';
/** The Bot Framework's clocks and ours may differ a little; a token is taken this long past its expiry, no longer. */
const CLOCK_TOLERANCE_S = 60;
/** A key id the cached set lacks makes the keys be fetched again, but not more often than this (forged kids cannot make us hammer the vendor). */
const KEYS_COOLDOWN_MS = 1_000;
/** The keys are fetched again after this long even when every kid is known (a withdrawn key stops counting). */
const KEYS_MAX_AGE_MS = 6 * 3_600_000;
const FETCH_TIMEOUT_MS = 5_000;

export interface RequestTokenOptions {
  /** The bot's Microsoft app id: the token's audience. */
  readonly appId: string;
  /** The OpenID configuration's address (BOTFRAMEWORK_OPENID_URL). */
  readonly openIdUrl: string;
}

/**
 * Checks the Bearer token of a request to the bot for an activity of a channel ("msteams"); resolves
 * with its claims, or throws an HttpError (401 missing, 403 not valid).
 */
export type RequestTokenCheck = (
  authorization: string | string[] | undefined,
  channelId: string | undefined,
) => Promise<JWTPayload>;

/**
 * The Bot Framework's proof that a request is its own: a JWT signed with a key it publishes at
 * its OpenID configuration's `jwks_uri`, issued by https://api.botframework.com for this bot's
 * app id. The keys are fetched once and cached, and fetched again when a token names a key id
 * the cache lacks (the Bot Framework rotates its keys) or after six hours. A key that names the
 * channels it signs for (its `endorsements`) must name the activity's.
 */
export function requestTokenCheck(options: RequestTokenOptions): RequestTokenCheck {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () => {
    keys ??= discover(options.openIdUrl).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  return async (authorization, channelId) => {
    const header = typeof authorization === 'string' ? authorization : undefined;
    const token = header && /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(header)?.[1];
    if (!token)
      throw new HttpError(
        401,
        'unauthorized',
        'The Authorization header must carry the Bot Framework\'s token ("Bearer <JWT>"); requests to this webhook come from Azure Bot Service.',
      );
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    const keys = await keySet().catch((error: unknown) => {
      throw refusal(error);
    });
    try {
      verified = await jwtVerify(token, keys, {
        issuer: BOT_FRAMEWORK_ISSUER,
        audience: options.appId,
        clockTolerance: CLOCK_TOLERANCE_S,
        algorithms: ['RS256'],
        requiredClaims: ['exp'],
      });
    } catch (error) {
      throw refusal(error);
    }
    const key = keys.jwks()?.keys.find((candidate) => candidate.kid === verified.protectedHeader.kid) as
      { endorsements?: unknown } | undefined;
    if (channelId !== undefined && Array.isArray(key?.endorsements) && !key.endorsements.includes(channelId)) {
      throw new HttpError(
        403,
        'forbidden',
        `The Bot Framework token is signed with a key not endorsed for the channel "${channelId.slice(0, 64)}".`,
      );
    }
    return verified.payload;
  };
}

async function discover(openIdUrl: string): Promise<ReturnType<typeof createRemoteJWKSet>> {
  const response = await fetch(openIdUrl, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`the Bot Framework's OpenID configuration answered ${response.status}`);
  const config = (await response.json()) as { jwks_uri?: unknown };
  if (typeof config.jwks_uri !== 'string')
    throw new Error("the Bot Framework's OpenID configuration names no jwks_uri");
  return createRemoteJWKSet(new URL(config.jwks_uri), {
    cooldownDuration: KEYS_COOLDOWN_MS,
    cacheMaxAge: KEYS_MAX_AGE_MS,
    timeoutDuration: FETCH_TIMEOUT_MS,
  });
}

/** The HttpError for a token that failed: what was wrong, in words, never the token itself. */
function refusal(error: unknown): HttpError {
  if (error instanceof errors.JWTExpired)
    return new HttpError(403, 'forbidden', 'The Bot Framework token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed)
    return new HttpError(
      403,
      'forbidden',
      `The Bot Framework token was not issued for this bot (its ${error.claim} claim does not match; check BOTFRAMEWORK_APP_ID).`,
    );
  if (error instanceof errors.JWKSNoMatchingKey)
    return new HttpError(
      403,
      'forbidden',
      'The Bot Framework token is signed with a key the Bot Framework does not publish.',
    );
  // Any other JOSE error but a key fetch that failed: the token itself is wrong (signature, form, algorithm).
  if (
    error instanceof errors.JOSEError &&
    !(error instanceof errors.JWKSTimeout) &&
    !(error instanceof errors.JWKSInvalid)
  ) {
    return new HttpError(
      403,
      'forbidden',
      'The Bot Framework token is not valid (its signature or form does not check).',
    );
  }
  // The keys could not be had (the vendor unreachable): the request may be genuine, so the Bot Framework is asked to try again.
  return new HttpError(
    503,
    'unavailable',
    "The Bot Framework's signing keys could not be fetched; the request can be sent again.",
  );
}
