import { Router, type Request, type Response } from 'express';
import { HttpError } from '../../ports/http-error.ts';
import type { SessionSettings } from '../accounts/people.ts';
import type { SingleSignOn, Transaction } from '../accounts/single-sign-on.ts';
import { setSessionCookie } from './cookies.ts';
import { requestMeta } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

/** Seals and opens the sign-in transaction the browser carries (state, nonce, PKCE verifier). */
export interface TransactionSeal {
  seal(transaction: Transaction): string;
  open(sealed: string): Transaction | undefined;
}

/**
 * The transaction cookie: SameSite=Lax, as the provider sends the browser back with a top-level
 * navigation from its own site (Strict would drop it); only on the callback's path; ten minutes.
 */
const cookieName = (req: Request) => (req.secure ? '__Secure-studio-oidc' : 'studio_oidc');
const PATH = '/studio/api/oidc';

function readCookie(req: Request): string | undefined {
  const name = cookieName(req);
  for (const part of String(req.headers.cookie ?? '')
    .slice(0, 8192)
    .split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

const setTransaction = (req: Request, res: Response, value: string, maxAge: number) =>
  res.append(
    'Set-Cookie',
    `${cookieName(req)}=${value}; Path=${PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${req.secure ? '; Secure' : ''}`,
  );

/** GET /oidc/login (redirect to the provider) and GET /oidc/callback (back from it): open routes. */
export function oidcRoutes(deps: {
  sso: () => SingleSignOn | undefined;
  seal: TransactionSeal;
  session: SessionSettings;
  redirectUri: () => string;
}): Router {
  const router = Router();
  const enabled = () => {
    const sso = deps.sso();
    if (!sso) throw new HttpError(404, 'not_found', 'Single sign-on is not set up on this server (OIDC_ISSUER).');
    return sso;
  };

  serveRoute(router, 'ssoLogin', {}, async (_input, req, res) => {
    const { url, transaction } = await enabled().start();
    setTransaction(req, res, deps.seal.seal(transaction), 600);
    res.redirect(303, url);
  });

  serveRoute(router, 'ssoCallback', {}, async (_input, req, res) => {
    const sso = enabled();
    const sealed = readCookie(req);
    const transaction = sealed ? deps.seal.open(sealed) : undefined;
    setTransaction(req, res, '', 0);
    // The registered redirect URI with the parameters the provider sent back (a proxy may have rewritten the host).
    const callback = new URL(deps.redirectUri());
    callback.search = new URL(req.originalUrl, 'http://callback.invalid').search;
    try {
      const signedIn = await sso.finish(callback, transaction, requestMeta(req));
      setSessionCookie(req, res, signedIn.cookie, deps.session.maxMs);
      res.redirect(303, '/studio/');
    } catch (error) {
      // A person arrives here by a browser's navigation: back to the sign-in page, which says what happened.
      if (!(error instanceof HttpError && error.status < 500)) throw error;
      res.redirect(303, `/studio/?sso_error=${error.code === 'forbidden' ? 'forbidden' : 'failed'}`);
    }
  });
  return router;
}
