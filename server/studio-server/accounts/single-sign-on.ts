import * as oidc from 'openid-client';
import { HttpError } from '../../ports/http-error.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Accounts } from '../../ports/accounts.ts';
import type { AuditTrail } from '../../ports/audit.ts';
import { ROLES, type Role } from '../../ports/roles.ts';
import type { People, RequestMeta, SignedIn } from './people.ts';
import { accountOfSubject, grantRole } from './sso-account.ts';
import { ssoRefused } from './sso-refused.ts';

export interface SingleSignOnSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly label: string;
  readonly roleClaim: string;
  readonly roleMap: ReadonlyMap<string, Role>;
  readonly scopes: string;
}

/** What the browser keeps between the redirect to the provider and its way back (sealed in a cookie). */
export interface Transaction {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  readonly expiresAt: number;
}

/** The studio role a person's claim maps to: the first of owner, editor, analyst, viewer any value gives; undefined for none. */
export function roleFromClaim(claim: unknown, map: ReadonlyMap<string, Role>): Role | undefined {
  const values = Array.isArray(claim)
    ? claim.filter((value): value is string => typeof value === 'string')
    : typeof claim === 'string'
      ? claim.split(/[\s,]+/)
      : [];
  const granted = new Set(values.map((value) => map.get(value)).filter((role): role is Role => role !== undefined));
  return ROLES.find((role) => granted.has(role));
}

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * Single sign-on through OpenID Connect (authorization code with PKCE, state and nonce) with
 * openid-client: the ID token's signature, issuer, audience, expiry and nonce are checked by the
 * library; a forged or expired token is refused. The person's account is found by the provider's
 * subject (or, the first time, by a verified email) and gets the role its claim maps to at every
 * sign-in; a person whose claim maps to no role is refused.
 */
export function singleSignOn(
  settings: SingleSignOnSettings,
  deps: {
    accounts: Accounts;
    audit: AuditTrail;
    people: People;
    logger: Logger;
    now: () => number;
    redirectUri: () => string;
  },
) {
  const configuration = discoveredProvider(settings, deps.logger);

  return {
    label: settings.label,

    /** Where to send the browser, and what it must bring back. */
    async start(): Promise<{ url: string; transaction: Transaction }> {
      const config = await configuration();
      const transaction: Transaction = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        expiresAt: deps.now() + 10 * 60_000,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: deps.redirectUri(),
        scope: settings.scopes,
        state: transaction.state,
        nonce: transaction.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(transaction.verifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, transaction };
    },

    /** The provider sent the browser back: exchange the code, check the ID token, sign the person in. */
    async finish(callbackUrl: URL, transaction: Transaction | undefined, meta: RequestMeta): Promise<SignedIn> {
      if (!transaction || transaction.expiresAt < deps.now())
        throw ssoRefused('the sign-in took too long or was started in another browser; start again.');
      const config = await configuration();
      const claims = await verifiedClaims(config, callbackUrl, transaction, deps, meta);
      const subject = `${claims.iss} ${claims.sub}`;
      const email =
        typeof claims.email === 'string' && claims.email_verified !== false ? claims.email.toLowerCase() : undefined;
      const role = roleFromClaim(claims[settings.roleClaim], settings.roleMap);
      if (!role) {
        await deps.audit.record({
          actor: { kind: 'account', ...(email ? { email } : {}) },
          ip: meta.ip,
          action: 'login_failed',
          details: { method: 'oidc', reason: 'no_role' },
        });
        throw new HttpError(
          403,
          'forbidden',
          `Your identity provider grants you no studio role (claim ${settings.roleClaim}); ask your administrator.`,
        );
      }
      const name = typeof claims.name === 'string' ? claims.name.slice(0, 100) : email;
      const found = await accountOfSubject(deps, { subject, email, name, role }, meta);
      const account = found.created ? found.account : await grantRole(deps, found.account, role, meta);
      const signedIn = await deps.people.startSession(account, meta, 'oidc');
      await deps.audit.record({
        actor: { kind: 'account', accountId: account.id, email: account.email },
        ip: meta.ip,
        action: 'login',
        details: { method: 'oidc' },
      });
      return signedIn;
    },
  };
}

export type SingleSignOn = ReturnType<typeof singleSignOn>;

/** The provider's configuration, read once it is first needed; read again after a failure. */
function discoveredProvider(settings: SingleSignOnSettings, logger: Logger): () => Promise<oidc.Configuration> {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= (async () => {
      const issuer = new URL(settings.issuer);
      // Plain HTTP only to a provider on this machine (development, tests); anywhere else HTTPS.
      const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
      // The ID token's signature is checked against the provider's keys too, not only trusted for arriving over TLS:
      // a token that was not signed by the provider is refused whatever the transport.
      return oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
        execute: [oidc.enableNonRepudiationChecks, ...(insecure ? [oidc.allowInsecureRequests] : [])],
      });
    })().catch((error: unknown) => {
      discovered = undefined;
      logger.error(
        { event: 'sso_discovery_failed', issuer: settings.issuer, error: (error as Error).message },
        'the OpenID provider could not be read; single sign-on is unavailable until it answers',
      );
      throw new HttpError(
        503,
        'sso_unavailable',
        'Single sign-on is unavailable right now: the identity provider does not answer. Try again later, or sign in with email and password.',
      );
    });
    return discovered;
  };

  return configuration;
}

/** The ID token's claims for the code the provider sent back: a refused exchange is logged and audited. */
async function verifiedClaims(
  config: oidc.Configuration,
  callbackUrl: URL,
  transaction: Transaction,
  deps: { readonly logger: Logger; readonly audit: AuditTrail },
  meta: RequestMeta,
): Promise<oidc.IDToken> {
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: transaction.verifier,
      expectedState: transaction.state,
      expectedNonce: transaction.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    // The library's reason (bad signature, expired, wrong audience…) is for operators.
    deps.logger.warn(
      { event: 'sso_refused', reason: (error as Error).message.slice(0, 200), ip: meta.ip },
      'a single sign-on answer was refused',
    );
    await deps.audit.record({
      actor: { kind: 'account' },
      ip: meta.ip,
      action: 'login_failed',
      details: { method: 'oidc', reason: 'token_refused' },
    });
    throw ssoRefused("the identity provider's answer could not be verified.");
  }
  if (!claims) throw ssoRefused('the identity provider sent no ID token.');
  return claims;
}
