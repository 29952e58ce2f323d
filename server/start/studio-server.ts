import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import { rateLimitKey } from '../settings/client-ip.ts';
import { localLimiter, type LimiterFactory } from '../api/rate-limit.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { AuditLog } from '../ports/audit.ts';
import type { Role } from '../ports/roles.ts';
import type { PeopleStores } from '../ports/store-parts.ts';
import { storeParts, type OpenedStore } from './open-store.ts';
import { accountAdmin } from '../studio-server/accounts/account-admin.ts';
import { apiTokens } from '../studio-server/accounts/api-tokens.ts';
import { loginLimits } from '../studio-server/accounts/login-limits.ts';
import { people, type People } from '../studio-server/accounts/people.ts';
import { setupLinks, setupUrl } from '../studio-server/accounts/setup-links.ts';
import { auditLog } from '../studio-server/audit/audit-trail.ts';
import { accountRoutes } from '../studio-server/http/account-routes.ts';
import { auditRoutes } from '../studio-server/http/audit-routes.ts';
import { openSessionRoutes, sessionRoutes } from '../studio-server/http/session-routes.ts';
import { studioApi } from '../studio-server/http/studio-api.ts';
import { studioPages } from '../studio-server/http/studio-pages.ts';
import { tokenRoutes } from '../studio-server/http/token-routes.ts';
import { secretRoutes } from '../studio-server/http/secret-routes.ts';
import { seal, unseal, type SecretKeys } from '../studio-server/secrets/secret-box.ts';
import { singleSignOn, type SingleSignOn, type Transaction } from '../studio-server/accounts/single-sign-on.ts';
import { oidcRoutes } from '../studio-server/http/oidc-routes.ts';
import { OPEN_METHODS, SIGNED_IN_METHODS, otherMethods } from '../studio-server/http/other-methods.ts';
import type { SecretKeeper } from '../studio-server/secrets/secret-keeper.ts';
import { openStudioSecrets, type StudioSignals } from './studio-secrets.ts';
import { chooseEncoding } from '../api/widget-assets.ts';

export interface StudioOptions {
  readonly root: string;
  readonly config: Config;
  readonly store: OpenedStore;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The cluster's shared limiter in cluster mode, so sign-in limits hold over every node. */
  readonly limiter?: LimiterFactory;
  /** The bot's public base URL, known once the server listens (setup links are made of it). */
  readonly baseUrl: () => string;
  /** The origins the studio is served at besides a request's own (PUBLIC_URL's). */
  readonly origins: () => readonly string[];
  /** Where a generated SECRETS_KEY is kept on a single node. */
  readonly dataDir: string;
  /** The environment the server was started with; a non-empty variable wins over a studio secret of the same name. */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** Cluster mode: how a secret change on one node reaches the others. */
  readonly signals?: StudioSignals;
  readonly nodeId?: string;
}

/** What the studio needs of the bot in service, known once it is prepared (after the studio opened). */
export interface StudioBot {
  /** The definition in service (for the secret names it reads). */
  readonly definition: () => unknown;
  /** Prepares the bot again from its source with the env as it is now (a secret changed). */
  readonly reprepare: (reason: string) => Promise<{ ok: boolean }>;
}

/** The studio's people side, opened before the bot is read (secrets feed the definition's env lookup). */
export interface Studio {
  readonly stores: PeopleStores;
  readonly audit: AuditLog;
  readonly secrets: SecretKeeper;
  /** The env the definition reads: the environment, then the studio's secrets. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Tells the other nodes that studio secrets changed: they read them again (the bot and the connectors follow). */
  announce(): Promise<void>;
  /** Hands the studio the bot in service, once prepared. */
  attach(bot: StudioBot): void;
  /**
   * The studio's surfaces on the HTTP side: its pages and its API. `routes` are the routers of the
   * other studio parts (versions, designer, insights), mounted behind the guard (studio-api.ts).
   */
  surfaces(routes?: readonly Router[]): RequestHandler[];
  /** With no owner yet: a one-time setup link for the first owner (printed at start); else undefined. */
  firstOwnerLink(): Promise<string | undefined>;
  /** Who a session cookie's value signs in (the preview socket's handshake), or null: as every studio request is checked. */
  signedIn(cookie: string): ReturnType<People['authenticate']>;
  /** The origins the studio is served at besides a request's own (PUBLIC_URL's). */
  readonly origins: () => readonly string[];
  /** A one-time setup link (`chatbot users add`, `reset-password`). */
  createSetupLink(role: Role, email: string | null, purpose: 'first_owner' | 'invitation' | 'reset'): Promise<string>;
}

export async function openStudio(options: StudioOptions): Promise<Studio> {
  const { config, logger } = options;
  const now = () => options.clock.now();
  const stores = await storeParts(options.store).people();
  const audit = auditLog(stores.audit, now);
  let bot: StudioBot | undefined;
  const { keys, secrets, changed, announce } = await openStudioSecrets(options, stores, audit, (reason) =>
    bot ? bot.reprepare(reason) : Promise.resolve({ ok: true }),
  );
  const session = { idleMs: config.STUDIO_SESSION_IDLE, maxMs: config.STUDIO_SESSION_MAX };
  const limits = loginLimits(
    options.limiter ?? localLimiter,
    { perAccount: config.STUDIO_LOGIN_RATE_LIMIT, perIp: config.STUDIO_LOGIN_IP_RATE_LIMIT },
    rateLimitKey,
  );
  const signIn = people({ accounts: stores.accounts, sessions: stores.sessions, audit, logger, now, limits, session });
  const setup = setupLinks({ accounts: stores.accounts, sessions: stores.sessions, audit, people: signIn, now });
  const tokens = apiTokens({ accounts: stores.accounts, audit, now });
  const admin = accountAdmin({ accounts: stores.accounts, sessions: stores.sessions, audit, now });
  const createSetupLink: Studio['createSetupLink'] = async (role, email, purpose) => {
    const { token } = await setup.create({ role, email, createdBy: null, actor: { kind: 'system' }, purpose });
    return setupUrl(options.baseUrl(), token);
  };
  const redirectUri = () => `${options.baseUrl().replace(/\/$/, '')}/studio/api/oidc/callback`;
  const sso = studioSingleSignOn(config, {
    accounts: stores.accounts,
    audit,
    people: signIn,
    logger,
    now,
    redirectUri,
  });
  const transactionSeal = sealedTransactions(keys);
  const sessionDeps = {
    people: signIn,
    tokens,
    setup,
    session,
    origins: options.origins,
    signIn: () => ({ password: true, singleSignOn: sso ? { label: sso.label } : null }),
  };

  return {
    stores,
    audit,
    secrets,
    env: secrets.env(options.environment),
    announce,
    attach(next) {
      bot = next;
    },
    surfaces: (routes = []) => [
      studioApi({
        people: signIn,
        tokens,
        origins: options.origins,
        open: [
          openSessionRoutes(sessionDeps),
          oidcRoutes({ sso: () => sso, seal: transactionSeal, session, redirectUri }),
          otherMethods(OPEN_METHODS),
        ],
        routes: [
          sessionRoutes(sessionDeps),
          tokenRoutes({ tokens }),
          accountRoutes({ admin, setup, baseUrl: options.baseUrl }),
          auditRoutes({ audit }),
          secretRoutes({
            secrets,
            environment: () => options.environment,
            definition: () => bot?.definition(),
            changed,
          }),
          otherMethods(SIGNED_IN_METHODS),
          ...routes,
        ],
      }),
      studioPages(path.join(options.root, 'dist', 'studio'), chooseEncoding),
    ],
    signedIn: (cookie) => signIn.authenticate(cookie),
    origins: options.origins,
    async firstOwnerLink() {
      if ((await stores.accounts.countAccounts('owner')) > 0) return undefined;
      return createSetupLink('owner', null, 'first_owner');
    },
    createSetupLink,
  };
}

/** Single sign-on when every OIDC setting is given (config.ts asks for the rest once OIDC_ISSUER is set); else undefined. */
function studioSingleSignOn(config: Config, deps: Parameters<typeof singleSignOn>[1]): SingleSignOn | undefined {
  if (
    !config.OIDC_ISSUER ||
    !config.OIDC_CLIENT_ID ||
    !config.OIDC_CLIENT_SECRET ||
    !config.OIDC_ROLE_CLAIM ||
    !config.OIDC_ROLE_MAP
  )
    return undefined;
  return singleSignOn(
    {
      issuer: config.OIDC_ISSUER,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      label: config.OIDC_LABEL ?? 'single sign-on',
      roleClaim: config.OIDC_ROLE_CLAIM,
      roleMap: config.OIDC_ROLE_MAP,
      scopes: config.OIDC_SCOPES,
    },
    deps,
  );
}

/** The sign-in transaction rides in a cookie sealed like the secrets (under its own name, so neither opens as the other). */
function sealedTransactions(keys: SecretKeys) {
  return {
    seal: (transaction: Transaction) => seal(keys, 'oidc-transaction', JSON.stringify(transaction)),
    open: (sealed: string): Transaction | undefined => {
      try {
        return JSON.parse(unseal(keys, 'oidc-transaction', sealed).value) as Transaction;
      } catch {
        return undefined;
      }
    },
  };
}
