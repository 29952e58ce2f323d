import { Router } from 'express';
import { HttpError } from '../../ports/http-error.ts';
import type { ApiTokens } from '../accounts/api-tokens.ts';
import { callerOf } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

/** The caller's own API tokens (every role): the token is in the answer to its creation and nowhere else, ever. */
export function tokenRoutes(deps: { tokens: ApiTokens }): Router {
  const router = Router();
  serveRoute(router, 'listTokens', {}, (_input, req) => deps.tokens.list(callerOf(req).account));
  serveRoute(router, 'createToken', {}, ({ body }, req) => {
    const caller = callerOf(req);
    return deps.tokens.create(caller.account, body, caller.actor, caller.ip);
  });
  serveRoute(router, 'revokeToken', {}, async ({ params }, req) => {
    const caller = callerOf(req);
    if (!(await deps.tokens.revoke(caller.account, params.id, caller.actor, caller.ip)))
      throw new HttpError(404, 'not_found', 'You have no API token with this id; it may have been revoked already.');
  });
  return router;
}
