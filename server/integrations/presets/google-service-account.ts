import { sign } from 'node:crypto';
import type { StepContext } from '../step-contract/step-type.ts';
import { failure, statusOf } from './schema-parts.ts';

/**
 * The OAuth 2.0 JWT bearer grant of a Google service account (RFC 7523, Google's "Using OAuth
 * 2.0 for Server to Server Applications"), made by hand with node:crypto rather than with
 * google-auth-library: that library sends its token request through its own HTTP stack, which
 * would bypass this product's guarded client (SSRF rules, INTEGRATION_ALLOWED_HOSTS, the step's
 * timeout and abort signal) and the integration log with its redaction; and the grant itself is
 * one RS256 signature over a documented claim set. The signed assertion and the access token are
 * redacted like secrets (ctx.redact).
 */

/** The fields of a service account key file (JSON) this grant reads. */
interface ServiceAccountKey {
  readonly client_email: string;
  readonly private_key: string;
  readonly private_key_id?: string;
  readonly token_uri?: string;
}

const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** Tokens live an hour; one is renewed a minute before it runs out. */
const LIFETIME_S = 3600;
const RENEW_BEFORE_MS = 60_000;

/** Tokens by service account, scope and token endpoint, shared by every call of this server. */
const tokens = new Map<string, { readonly token: string; readonly until: number }>();

/** The key file from the secret: its JSON text, or that text base64-encoded (easier to keep in an environment variable). */
export function readServiceAccount(secret: string): ServiceAccountKey {
  const text = secret.trim().startsWith('{') ? secret : Buffer.from(secret, 'base64').toString('utf8');
  let key: Partial<ServiceAccountKey>;
  try {
    key = JSON.parse(text) as Partial<ServiceAccountKey>;
  } catch {
    throw failure(
      'The service account secret is not a key file (JSON, or JSON in base64); download a JSON key in Google Cloud under IAM > Service accounts > Keys.',
      'auth',
    );
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw failure(
      'The service account key file has no client_email or private_key; download a JSON key again.',
      'auth',
    );
  }
  return key as ServiceAccountKey;
}

/** An access token for `scope`, from the cache or a new grant. `fresh` drops the cached one (the API refused it). */
export async function googleAccessToken(
  ctx: StepContext,
  key: ServiceAccountKey,
  scope: string,
  fresh = false,
): Promise<string> {
  const tokenUri = key.token_uri ?? GOOGLE_TOKEN_URI;
  const cacheKey = JSON.stringify([key.client_email, scope, tokenUri]);
  const cached = tokens.get(cacheKey);
  if (cached && !fresh && cached.until - RENEW_BEFORE_MS > Date.now()) {
    ctx.redact(cached.token);
    return cached.token;
  }
  const issuedAt = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = { iss: key.client_email, scope, aud: tokenUri, iat: issuedAt, exp: issuedAt + LIFETIME_S };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  let signature: Buffer;
  try {
    signature = sign('RSA-SHA256', Buffer.from(unsigned, 'utf8'), key.private_key);
  } catch {
    throw failure(
      "The service account's private_key cannot sign (it is not a PEM RSA key); download a JSON key again.",
      'auth',
    );
  }
  const assertion = `${unsigned}.${signature.toString('base64url')}`;
  ctx.redact(assertion);
  let body: { access_token?: unknown; expires_in?: unknown } | null;
  try {
    const response = await ctx.request({
      method: 'POST',
      url: tokenUri,
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion },
    });
    body = response.body as typeof body;
  } catch (error) {
    const status = statusOf(error);
    if (status === undefined || status >= 500 || status === 429) throw error;
    throw failure(
      `Google refused the service account (HTTP ${status} from its token endpoint); check the key and that it is not disabled.`,
      'auth',
      status,
    );
  }
  if (typeof body?.access_token !== 'string')
    throw failure("Google's token endpoint answered without an access token.", 'auth');
  ctx.redact(body.access_token);
  const lifetime = typeof body.expires_in === 'number' ? body.expires_in : LIFETIME_S;
  tokens.set(cacheKey, { token: body.access_token, until: Date.now() + lifetime * 1000 });
  return body.access_token;
}

/** Calls a Google API with the service account's token; on a 401 (token revoked or expired early) once more with a new one. */
export async function withGoogleToken<T>(
  ctx: StepContext,
  key: ServiceAccountKey,
  scope: string,
  call: (token: string) => Promise<T>,
): Promise<T> {
  try {
    return await call(await googleAccessToken(ctx, key, scope));
  } catch (error) {
    if (statusOf(error) !== 401) throw error;
    return call(await googleAccessToken(ctx, key, scope, true));
  }
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
