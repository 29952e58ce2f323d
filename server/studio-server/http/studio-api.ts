/**
 * The studio's HTTP API under /studio/api: the framework every studio router mounts in.
 *
 * How another room's router joins (versions, designer, insights):
 *   1. Write `export function versionsRoutes(deps): Router` with `Router()` from express; paths
 *      are relative to /studio/api (`router.get('/versions', …)`).
 *   2. Guard every route with `requireRole('<permission>')` from this file (permissions and who
 *      holds them: server/ports/roles.ts). A refusal is 403 `forbidden` naming the role.
 *   3. Read who is calling with `callerOf(req)`: `{ account, role, actor, ip }`; hand `actor` and
 *      `ip` to `audit.record(...)` (the AuditTrail port) for every change.
 *   4. Read bodies with `readJson(req, zodSchema, limitBytes)` from request-body.ts (bounded,
 *      depth-checked, unknown keys refused when the schema is strict).
 *   5. Add the router to `routes` in server/start/studio-server.ts.
 * By the time a mounted router sees a request, the caller is signed in (session cookie or
 * `Authorization: Bearer <API token>`) and, for a cookie-authenticated write, the CSRF checks
 * passed. Errors thrown as HttpError get the catalogue's body with the request id.
 */
import { Router, type Request, type RequestHandler } from 'express';
import { HttpError } from '../../ports/http-error.ts';
import type { Account } from '../../ports/accounts.ts';
import type { AuditActor } from '../../ports/audit.ts';
import { PERMISSIONS, may, type Permission, type Role } from '../../ports/roles.ts';
import type { StudioSession } from '../../ports/sessions.ts';
import type { ApiTokens } from '../accounts/api-tokens.ts';
import { sameSecret } from '../accounts/digests.ts';
import { actorOf, rolesInWords, type People } from '../accounts/people.ts';
import { readSessionCookie } from './cookies.ts';

/** Who is calling, as every studio route sees it. */
export interface Caller {
  readonly account: Account;
  /** The account's role as it is now (a role change applies to the next request). */
  readonly role: Role;
  /** For the audit trail: the account, through a session or an API token. */
  readonly actor: AuditActor;
  /** The client's address as TRUST_PROXY sees it. */
  readonly ip: string;
  readonly userAgent: string;
  readonly via: 'session' | 'token';
  /** Present for a session (cookie) caller. */
  readonly session?: StudioSession;
}

const callers = new WeakMap<Request, Caller>();

/** The signed-in caller of a request that passed the studio's guard; throws 401 otherwise. */
export function callerOf(req: Request): Caller {
  const caller = callers.get(req);
  if (!caller) throw unauthenticated();
  return caller;
}

export const unauthenticated = () =>
  new HttpError(401, 'unauthenticated', 'Sign in to the studio first (or send an API token as Authorization: Bearer).');

/** Refuses, with 403 `forbidden` naming the role needed, a caller whose role lacks `permission`. */
export function requireRole(permission: Permission): RequestHandler {
  const roles = PERMISSIONS[permission];
  return (req, _res, next) => {
    const caller = callerOf(req);
    if (may(caller.role, permission)) return next();
    next(
      new HttpError(
        403,
        'forbidden',
        `This needs ${rolesInWords(roles)}; you are signed in as ${caller.role}. Ask an owner if you need it.`,
        { needed: [...roles], role: caller.role },
      ),
    );
  };
}

/** Where a request's client is (Express's req.ip follows TRUST_PROXY, as the rest of the server does). */
export const requestMeta = (req: Request) => ({
  ip: req.ip ?? req.socket.remoteAddress ?? '',
  userAgent: String(req.headers['user-agent'] ?? '').slice(0, 200),
});

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface GuardOptions {
  readonly people: People;
  readonly tokens: ApiTokens;
  /** Origins besides the request's own that the studio is served at (PUBLIC_URL's). */
  readonly origins: () => readonly string[];
}

/**
 * A write from a page must come from the studio's own origin: `Origin` names it, or, where a
 * browser sends no Origin, `Sec-Fetch-Site: same-origin`. A request with neither header is
 * refused: every browser this studio supports sends one of them on a write, so a cookie write
 * without both came from something that is not the studio's page (an old browser, a plugin, a
 * proxy stripping headers), and the token alone is then the only guard. Scripts use API tokens.
 */
export function sameOrigin(req: Request, origins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    // req.host: the Host header, or X-Forwarded-Host from a proxy TRUST_PROXY believes.
    const own = `${req.protocol}://${req.host ?? ''}`.toLowerCase();
    return origin.toLowerCase() === own || origins.some((allowed) => allowed.toLowerCase() === origin.toLowerCase());
  }
  if (origin === 'null') return false;
  return req.headers['sec-fetch-site'] === 'same-origin';
}

export const csrfFailed = () =>
  new HttpError(
    403,
    'csrf_failed',
    'This write did not come from the studio page (its CSRF token or origin is missing or wrong). Reload the studio and try again.',
  );

/**
 * Signs the caller in from the session cookie or a Bearer API token (401 otherwise) and checks
 * CSRF on a cookie caller's writes: the session's token in X-CSRF-Token, and the studio's own
 * origin. A Bearer caller needs no CSRF check: no browser sends that header on its own.
 */
export function authenticate(options: GuardOptions): RequestHandler {
  return async (req, _res, next) => {
    const meta = requestMeta(req);
    const authorization = req.headers.authorization;
    if (typeof authorization === 'string' && authorization !== '') {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      const found = match ? await options.tokens.authenticate(match[1]!) : null;
      if (!found)
        return next(
          new HttpError(401, 'unauthenticated', 'The API token is not valid: it may be mistyped, revoked or expired.'),
        );
      callers.set(req, {
        account: found.account,
        role: found.account.role,
        actor: actorOf(found.account, 'token'),
        ...meta,
        via: 'token',
      });
      return next();
    }
    const cookie = readSessionCookie(req);
    const found = cookie ? await options.people.authenticate(cookie) : null;
    if (!found) return next(unauthenticated());
    if (!SAFE.has(req.method)) {
      const sent = req.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !sameSecret(sent, found.session.csrfToken) || !sameOrigin(req, options.origins()))
        return next(csrfFailed());
    }
    callers.set(req, {
      account: found.account,
      role: found.account.role,
      actor: actorOf(found.account),
      ...meta,
      via: 'session',
      session: found.session,
    });
    next();
  };
}

export interface StudioApiOptions extends GuardOptions {
  /** Routes anyone may call (sign-in, setup, single sign-on); CSRF on their writes is theirs to check. */
  readonly open: readonly Router[];
  /** Routes for signed-in callers, each guarding its own permissions with requireRole. */
  readonly routes: readonly Router[];
}

/** The API router, mounted at /studio/api: open routes, then the guard, then everything else. */
export function studioApi(options: StudioApiOptions): Router {
  const api = Router();
  api.use((_req, res, next) => {
    // Answers hold accounts, sessions and tokens: never cached, never sniffed.
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    next();
  });
  for (const router of options.open) api.use(router);
  api.use(authenticate(options));
  for (const router of options.routes) api.use(router);
  api.use((req, _res, next) =>
    next(new HttpError(404, 'not_found', `The studio API has no ${req.method} ${req.baseUrl}${req.path}.`)),
  );
  const mounted = Router();
  mounted.use('/studio/api', api);
  return mounted;
}
