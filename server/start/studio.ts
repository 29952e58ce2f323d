import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import { rateLimitKey } from '../api/client-ip.ts';
import { localLimiter, type LimiterFactory } from '../api/rate-limit.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { AuditLog } from '../ports/studio/audit.ts';
import type { Role } from '../ports/studio/roles.ts';
import { openPeopleRooms, type PeopleRooms } from '../stores/studio-rooms.ts';
import type { MongoStore } from '../stores/mongo/mongo-store.ts';
import type { SqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { accountAdmin } from '../studio/accounts/account-admin.ts';
import { apiTokens } from '../studio/accounts/api-tokens.ts';
import { loginLimits } from '../studio/accounts/login-limits.ts';
import { people } from '../studio/accounts/people.ts';
import { setupLinks, setupUrl } from '../studio/accounts/setup-links.ts';
import { auditLog } from '../studio/audit/audit-trail.ts';
import { accountRoutes } from '../studio/http/account-routes.ts';
import { auditRoutes } from '../studio/http/audit-routes.ts';
import { openSessionRoutes, sessionRoutes } from '../studio/http/session-routes.ts';
import { studioApi } from '../studio/http/studio-api.ts';
import { studioPages } from '../studio/http/studio-pages.ts';
import { tokenRoutes } from '../studio/http/token-routes.ts';

export interface StudioOptions {
  readonly root: string;
  readonly config: Config;
  readonly store: SqliteStore | MongoStore;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The cluster's shared limiter in cluster mode, so sign-in limits hold over every node. */
  readonly limiter?: LimiterFactory;
  /** The bot's public base URL, known once the server listens (setup links are made of it). */
  readonly baseUrl: () => string;
  /** The origins the studio is served at besides a request's own (PUBLIC_URL's). */
  readonly origins: () => readonly string[];
}

/** The studio's people side, opened before the bot is read (secrets feed the definition's env lookup). */
export interface Studio {
  readonly rooms: PeopleRooms;
  readonly audit: AuditLog;
  /**
   * The studio's surfaces on the HTTP side: its pages and its API. `routes` are the routers of the
   * other studio rooms (versions, designer, insights), mounted behind the guard (studio-api.ts).
   */
  surfaces(routes?: readonly Router[]): RequestHandler[];
  /** With no owner yet: a one-time setup link for the first owner (printed at start); else undefined. */
  firstOwnerLink(): Promise<string | undefined>;
  /** A one-time setup link (`chatbot users add`, `reset-password`). */
  createSetupLink(role: Role, email: string | null, purpose: 'first_owner' | 'invitation' | 'reset'): Promise<string>;
}

export async function openStudio(options: StudioOptions): Promise<Studio> {
  const { config, logger } = options;
  const now = () => options.clock.now();
  const rooms = await openPeopleRooms(options.store);
  const audit = auditLog(rooms.audit, now);
  const session = { idleMs: config.STUDIO_SESSION_IDLE, maxMs: config.STUDIO_SESSION_MAX };
  const limits = loginLimits(options.limiter ?? localLimiter, { perAccount: config.STUDIO_LOGIN_RATE_LIMIT, perIp: config.STUDIO_LOGIN_IP_RATE_LIMIT }, rateLimitKey);
  const signIn = people({ accounts: rooms.accounts, sessions: rooms.sessions, audit, logger, now, limits, session });
  const setup = setupLinks({ accounts: rooms.accounts, sessions: rooms.sessions, audit, people: signIn, now });
  const tokens = apiTokens({ accounts: rooms.accounts, audit, now });
  const admin = accountAdmin({ accounts: rooms.accounts, sessions: rooms.sessions, audit, now });
  const createSetupLink: Studio['createSetupLink'] = async (role, email, purpose) => {
    const { token } = await setup.create({ role, email, createdBy: null, actor: { kind: 'system' }, purpose });
    return setupUrl(options.baseUrl(), token);
  };
  const sessionDeps = { people: signIn, setup, session, origins: options.origins, signIn: () => ({ password: true, singleSignOn: null }) };

  return {
    rooms,
    audit,
    surfaces: (routes = []) => [
      studioApi({
        people: signIn,
        tokens,
        origins: options.origins,
        open: [openSessionRoutes(sessionDeps)],
        routes: [sessionRoutes(sessionDeps), tokenRoutes({ tokens }), accountRoutes({ admin, setup, baseUrl: options.baseUrl }), auditRoutes({ audit }), ...routes],
      }),
      studioPages(path.join(options.root, 'dist', 'studio')),
    ],
    async firstOwnerLink() {
      if ((await rooms.accounts.countAccounts('owner')) > 0) return undefined;
      return createSetupLink('owner', null, 'first_owner');
    },
    createSetupLink,
  };
}
