import { Router, type RequestHandler } from 'express';
import { methodsByPath, type StudioRouteName } from '../../../shared/studio-routes.ts';
import { HttpError } from '../../ports/http-error.ts';

/**
 * The people side's routes: the paths with the methods each answers. Another method on one of them is 405
 * with Allow (as the rest of the product answers), not 404: the path exists.
 */
export const OPEN_METHODS: readonly StudioRouteName[] = [
  'signInOptions',
  'login',
  'checkSetupLink',
  'completeSetup',
  'ssoLogin',
  'ssoCallback',
];

/** Mounted after the guard, so a stranger learns nothing of these paths. */
export const SIGNED_IN_METHODS: readonly StudioRouteName[] = [
  'session',
  'logout',
  'logoutEverywhere',
  'listSessions',
  'endSession',
  'changePassword',
  'listAccounts',
  'inviteAccount',
  'updateAccount',
  'deleteAccount',
  'cancelInvitation',
  'listTokens',
  'createToken',
  'revokeToken',
  'listSecrets',
  'setSecret',
  'deleteSecret',
  'readAudit',
];

/**
 * Answers 405 with Allow for each path of `routes` (the methods the map serves it with); mount it
 * after the routers that serve them. With `guard`, a caller it refuses learns nothing of the path.
 */
export function otherMethods(routes: readonly StudioRouteName[], guard?: RequestHandler): Router {
  const router = Router();
  for (const [route, allow] of Object.entries(methodsByPath(routes))) {
    const methods = allow.split(', ');
    const refuse: RequestHandler = (req, res, next) => {
      // HEAD is answered by GET's route; anything reaching here is not served on this path.
      res.setHeader('Allow', allow);
      next(
        new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${methods[0]}.`, {
          allow: methods,
        }),
      );
    };
    if (guard) router.all(route, guard, refuse);
    else router.all(route, refuse);
  }
  return router;
}
