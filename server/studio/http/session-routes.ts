import { Router, type Request } from 'express';
import { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';
import type { SetupLinks } from '../accounts/setup-links.ts';
import { MAX_PASSWORD } from '../accounts/passwords.ts';
import { sessionHandle, type People, type SessionSettings, type SignedIn } from '../accounts/people.ts';
import type { ApiTokens } from '../accounts/api-tokens.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './cookies.ts';
import { readJson, parseInput } from './request-body.ts';
import { callerOf, csrfFailed, requestMeta, sameOrigin } from './studio-api.ts';

export const emailField = z
  .string()
  .trim()
  .min(3, 'give an email address')
  .max(254, 'an email address has at most 254 characters')
  .regex(/^[^\s@]+@[^\s@]+$/, 'give an email address such as ana@example.com');
export const nameField = z
  .string()
  .trim()
  .min(1, 'give a name')
  .max(100, 'a name has at most 100 characters')
  .regex(/^[^\p{Cc}]*$/u, 'a name has no control characters');
const passwordField = z
  .string()
  .min(1, 'give a password')
  .max(MAX_PASSWORD, `a password has at most ${MAX_PASSWORD} characters`);
const tokenField = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'not a setup token');

const loginBody = z.strictObject({ email: emailField, password: passwordField });
const setupBody = z.strictObject({
  token: tokenField,
  email: emailField.optional(),
  name: nameField,
  password: passwordField,
});
const passwordBody = z.strictObject({ currentPassword: passwordField, newPassword: passwordField });
/** "Log out everywhere" ends sessions; with apiTokens it ends the account's API tokens too (a lost laptop may hold one). */
const everywhereBody = z.strictObject({ apiTokens: z.boolean().optional() });

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
  // What the sign-in page offers, and whether the browser is signed in already (so the page need not provoke a 401).
  router.get('/sign-in-options', async (req, res) => {
    const cookie = readSessionCookie(req);
    res.json({ ...deps.signIn(), signedIn: cookie ? (await deps.people.authenticate(cookie)) !== null : false });
  });

  router.post('/login', async (req, res) => {
    requireOwnOrigin(req, deps.origins());
    const input = await readJson(req, loginBody);
    const signedIn = await deps.people.login(input.email, input.password, requestMeta(req));
    setSessionCookie(req, res, signedIn.cookie, deps.session.maxMs);
    res.json(sessionBody(signedIn));
  });

  // The token comes as a query parameter named `token`, which the request log redacts by name.
  router.get('/setup', async (req, res) => {
    const { token } = parseInput(z.strictObject({ token: tokenField }), req.query, 'query');
    res.json(await deps.setup.check(token));
  });

  router.post('/setup', async (req, res) => {
    requireOwnOrigin(req, deps.origins());
    const input = await readJson(req, setupBody);
    const signedIn = await deps.setup.complete(
      { token: input.token, email: input.email ?? '', name: input.name, password: input.password },
      requestMeta(req),
    );
    setSessionCookie(req, res, signedIn.cookie, deps.session.maxMs);
    res.status(201).json(sessionBody(signedIn));
  });
  return router;
}

/** The caller's own session, sessions and password: every role. */
export function sessionRoutes(deps: SessionRouteDeps): Router {
  const router = Router();
  router.get('/session', (req, res) => {
    const { account, session } = callerOf(req);
    // An API token caller has no session: no CSRF token, no expiry of its own.
    res.json({
      account: { id: account.id, email: account.email, name: account.name, role: account.role },
      csrfToken: session?.csrfToken ?? null,
      expiresAt: session ? new Date(session.expiresAt).toISOString() : null,
    });
  });

  router.post('/logout', async (req, res) => {
    const caller = callerOf(req);
    if (caller.session) await deps.people.logout(caller.account, caller.session, caller);
    clearSessionCookie(req, res);
    res.status(204).end();
  });

  router.post('/logout-everywhere', async (req, res) => {
    const caller = callerOf(req);
    // A POST without a body ends the sessions only, as it did before the choice was offered.
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    const input = hasBody ? await readJson(req, everywhereBody) : {};
    const ended = await deps.people.logoutEverywhere(caller.account, caller.actor, caller);
    const tokensEnded = input.apiTokens ? await deps.tokens.revokeAll(caller.account, caller.actor, caller.ip) : 0;
    clearSessionCookie(req, res);
    res.json({ ended, tokensEnded });
  });

  router.get('/sessions', async (req, res) => {
    const caller = callerOf(req);
    const sessions = await deps.people.listSessions(caller.account);
    res.json(
      sessions.map((session) => ({
        id: sessionHandle(session),
        current: session.id === caller.session?.id,
        createdAt: new Date(session.createdAt).toISOString(),
        lastSeenAt: new Date(session.lastSeenAt).toISOString(),
        expiresAt: new Date(session.expiresAt).toISOString(),
        ip: session.ip,
        userAgent: session.userAgent,
        method: session.method,
      })),
    );
  });

  router.delete('/sessions/:id', async (req, res) => {
    const caller = callerOf(req);
    const id = parseInput(z.string().regex(/^[0-9a-f]{24}$/, 'not a session id'), req.params.id, 'path');
    if (!(await deps.people.revokeSession(caller.account, id, caller.actor, caller)))
      throw new HttpError(404, 'not_found', 'You have no session with this id; it may have ended already.');
    res.status(204).end();
  });

  router.post('/password', async (req, res) => {
    const caller = callerOf(req);
    const input = await readJson(req, passwordBody);
    if (!caller.account.passwordHash || !(await verifyPassword(caller.account.passwordHash, input.currentPassword))) {
      throw new HttpError(400, 'invalid_credentials', 'Your current password is not right.');
    }
    await deps.people.setPassword(caller.account, input.newPassword, caller.actor, caller, caller.session);
    res.status(204).end();
  });
  return router;
}
