import { Router, type Request, type RequestHandler } from 'express';
import type { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';
import type { SetupLinks } from '../accounts/setup-links.ts';
import { sessionHandle, type People, type SessionSettings, type SignedIn } from '../accounts/people.ts';
import type { ApiTokens } from '../accounts/api-tokens.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './cookies.ts';
import { readJson } from './request-body.ts';
import { callerOf, csrfFailed, requestMeta, sameOrigin } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

export { emailField, nameField } from '../../../shared/studio-people.ts';

export interface SessionRouteDeps {
  readonly people: People;
  readonly tokens: ApiTokens;
  readonly setup: SetupLinks;
  readonly session: SessionSettings;
  readonly origins: () => readonly string[];
  /** How the studio offers sign-in (shown on the sign-in page). */
  readonly signIn: () => { readonly password: boolean; readonly singleSignOn: { readonly label: string } | null };
}

/** The session's answer: who is signed in and the CSRF token the page sends back on writes. */
export const sessionBody = (signedIn: Pick<SignedIn, 'account' | 'session'>) => ({
  account: {
    id: signedIn.account.id,
    email: signedIn.account.email,
    name: signedIn.account.name,
    role: signedIn.account.role,
  },
  csrfToken: signedIn.session.csrfToken,
  expiresAt: new Date(signedIn.session.expiresAt).toISOString(),
});

/** A sign-in from another site's page is refused (login CSRF): the page must be the studio's own. */
function requireOwnOrigin(req: Request, origins: readonly string[]): void {
  if (!sameOrigin(req, origins)) throw csrfFailed();
}

/** Sign-in, setup links and the sign-in page's settings: open to anyone, limited and audited. */
export function openSessionRoutes(deps: SessionRouteDeps): Router {
  const router = Router();
  const ownOrigin: RequestHandler = (req, _res, next) => {
    requireOwnOrigin(req, deps.origins());
    next();
  };
  // What the sign-in page offers, and whether the browser is signed in already (so the page need not provoke a 401).
  serveRoute(router, 'signInOptions', {}, async (_input, req) => {
    const cookie = readSessionCookie(req);
    return { ...deps.signIn(), signedIn: cookie ? (await deps.people.authenticate(cookie)) !== null : false };
  });

  serveRoute(router, 'login', { guard: ownOrigin }, async ({ body }, req, res) => {
    const signedIn = await deps.people.login(body.email, body.password, requestMeta(req));
    setSessionCookie(req, res, signedIn.cookie, deps.session.maxMs);
    return sessionBody(signedIn);
  });

  serveRoute(router, 'checkSetupLink', {}, ({ query }) => deps.setup.check(query.token));

  serveRoute(router, 'completeSetup', { guard: ownOrigin }, async ({ body }, req, res) => {
    const signedIn = await deps.setup.complete(
      { token: body.token, email: body.email ?? '', name: body.name, password: body.password },
      requestMeta(req),
    );
    setSessionCookie(req, res, signedIn.cookie, deps.session.maxMs);
    return sessionBody(signedIn);
  });
  return router;
}

/** The caller's own session, sessions and password: every role. */
export function sessionRoutes(deps: SessionRouteDeps): Router {
  const router = Router();
  serveRoute(router, 'session', {}, (_input, req) => {
    const { account, session } = callerOf(req);
    // An API token caller has no session: no CSRF token, no expiry of its own.
    return {
      account: { id: account.id, email: account.email, name: account.name, role: account.role },
      csrfToken: session?.csrfToken ?? null,
      expiresAt: session ? new Date(session.expiresAt).toISOString() : null,
    };
  });

  serveRoute(router, 'logout', {}, async (_input, req, res) => {
    const caller = callerOf(req);
    if (caller.session) await deps.people.logout(caller.account, caller.session, caller);
    clearSessionCookie(req, res);
  });

  // A POST without a body ends the sessions only, as it did before the choice was offered.
  const bodyIfAny = (req: Request, schema: z.ZodType) =>
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
      ? readJson(req, schema)
      : Promise.resolve({});
  serveRoute(router, 'logoutEverywhere', { read: bodyIfAny }, async ({ body }, req, res) => {
    const caller = callerOf(req);
    const ended = await deps.people.logoutEverywhere(caller.account, caller.actor, caller);
    const tokensEnded = body.apiTokens ? await deps.tokens.revokeAll(caller.account, caller.actor, caller.ip) : 0;
    clearSessionCookie(req, res);
    return { ended, tokensEnded };
  });

  serveRoute(router, 'listSessions', {}, async (_input, req) => {
    const caller = callerOf(req);
    const sessions = await deps.people.listSessions(caller.account);
    return sessions.map((session) => ({
      id: sessionHandle(session),
      current: session.id === caller.session?.id,
      createdAt: new Date(session.createdAt).toISOString(),
      lastSeenAt: new Date(session.lastSeenAt).toISOString(),
      expiresAt: new Date(session.expiresAt).toISOString(),
      ip: session.ip,
      userAgent: session.userAgent,
      method: session.method,
    }));
  });

  serveRoute(router, 'endSession', {}, async ({ params }, req) => {
    const caller = callerOf(req);
    if (!(await deps.people.revokeSession(caller.account, params.id, caller.actor, caller)))
      throw new HttpError(404, 'not_found', 'You have no session with this id; it may have ended already.');
  });

  serveRoute(router, 'changePassword', {}, async ({ body }, req) => {
    const caller = callerOf(req);
    if (!caller.account.passwordHash || !(await verifyPassword(caller.account.passwordHash, body.currentPassword))) {
      throw new HttpError(400, 'invalid_credentials', 'Your current password is not right.');
    }
    await deps.people.setPassword(caller.account, body.newPassword, caller.actor, caller, caller.session);
  });
  return router;
}
