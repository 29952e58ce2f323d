import type { Clock } from '../../ports/clock.ts';
import { IntegrationError } from '../http/integration-error.ts';
import type { SafeHttpClient } from '../http/safe-http-client.ts';
import { sendAndRecord, type CallRecorder } from '../http/integration-log.ts';
import type { AuthContext, Authenticator, Authorization } from './authenticator.ts';

export interface OAuthClientCredentialsOptions {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope?: string;
  readonly audience?: string;
  readonly credentialsIn: 'header' | 'body';
}

interface CachedToken {
  readonly token: string;
  /** Epoch ms after which the token is no longer used. */
  readonly renewAt: number;
}

/** A token without expires_in is trusted this long (RFC 6749 makes expires_in optional). */
const DEFAULT_LIFETIME_MS = 5 * 60_000;

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4). The token is cached until
 * shortly before it expires (10 % of its lifetime, at most 30 s early), at most
 * one token request is in flight per credential however many calls wait for
 * it, and a 401 drops the refused token so the one retry fetches a fresh one.
 */
export class OAuthClientCredentials implements Authenticator {
  private cached: CachedToken | undefined;
  private pending: Promise<CachedToken> | undefined;

  constructor(
    private readonly options: OAuthClientCredentialsOptions,
    private readonly deps: { readonly http: SafeHttpClient; readonly clock: Clock; readonly timeoutMs?: number },
  ) {}

  async authorize(context: AuthContext): Promise<Authorization> {
    const { token } = await this.token(context.record);
    return { headers: { authorization: `Bearer ${token}` }, secrets: [token, this.options.clientSecret] };
  }

  heldSecrets(): readonly string[] {
    return this.cached ? [this.options.clientSecret, this.cached.token] : [this.options.clientSecret];
  }

  refreshAfterUnauthorized(refused: Authorization): boolean {
    if (this.cached && refused.headers.authorization === `Bearer ${this.cached.token}`) this.cached = undefined;
    return true;
  }

  private token(record: CallRecorder): Promise<CachedToken> {
    if (this.cached && this.deps.clock.now() < this.cached.renewAt) return Promise.resolve(this.cached);
    this.pending ??= this.fetchToken(record).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetchToken(record: CallRecorder): Promise<CachedToken> {
    const { tokenUrl, clientId, clientSecret, scope, audience, credentialsIn } = this.options;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) form.set('scope', scope);
    if (audience) form.set('audience', audience);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    if (credentialsIn === 'header') headers.authorization = `Basic ${basic}`;
    else {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    }
    const requestedAt = this.deps.clock.now();
    let response;
    try {
      response = await sendAndRecord(
        this.deps.http,
        { url: tokenUrl, method: 'POST', headers, body: form.toString(), timeoutMs: this.deps.timeoutMs },
        record,
        [clientSecret, basic],
      );
    } catch (error) {
      throw new IntegrationError(
        'auth',
        `Could not get an access token from ${new URL(tokenUrl).host}: ${(error as Error).message}`,
      );
    }
    if (response.status < 200 || response.status > 299) {
      throw new IntegrationError(
        'auth',
        `The token endpoint ${new URL(tokenUrl).host} answered ${response.status}; check the client id and secret.`,
      );
    }
    let parsed: { access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse(response.body.toString('utf8')) as typeof parsed;
    } catch {
      throw new IntegrationError('auth', `The token endpoint ${new URL(tokenUrl).host} did not answer JSON.`);
    }
    if (typeof parsed.access_token !== 'string' || parsed.access_token === '') {
      throw new IntegrationError(
        'auth',
        `The token endpoint ${new URL(tokenUrl).host} answered without an access_token.`,
      );
    }
    const lifetimeMs =
      typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in * 1000 : DEFAULT_LIFETIME_MS;
    const early = Math.min(30_000, lifetimeMs * 0.1);
    this.cached = { token: parsed.access_token, renewAt: requestedAt + lifetimeMs - early };
    return this.cached;
  }
}
