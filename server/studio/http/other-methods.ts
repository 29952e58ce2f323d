import { Router } from 'express';
import { HttpError } from '../../ports/http-error.ts';

/**
 * The people side's paths with the methods each answers. Another method on one of them is 405
 * with Allow (as the rest of the product answers), not 404: the path exists.
 */
export const OPEN_METHODS: Readonly<Record<string, string>> = {
  '/sign-in-options': 'GET',
  '/login': 'POST',
  '/setup': 'GET, POST',
  '/oidc/login': 'GET',
  '/oidc/callback': 'GET',
};

/** Mounted after the guard, so a stranger learns nothing of these paths. */
export const SIGNED_IN_METHODS: Readonly<Record<string, string>> = {
  '/session': 'GET',
  '/logout': 'POST',
  '/logout-everywhere': 'POST',
  '/sessions': 'GET',
  '/sessions/:id': 'DELETE',
  '/password': 'POST',
  '/accounts': 'GET, POST',
  '/accounts/:id': 'PATCH, DELETE',
  '/invitations/:id': 'DELETE',
  '/tokens': 'GET, POST',
  '/tokens/:id': 'DELETE',
  '/secrets': 'GET',
  '/secrets/:name': 'PUT, DELETE',
  '/audit': 'GET',
};

/** Answers 405 with Allow for each path in `allowed`; mount it after the routers that serve them. */
export function otherMethods(allowed: Readonly<Record<string, string>>): Router {
  const router = Router();
  for (const [route, allow] of Object.entries(allowed)) {
    const methods = allow.split(', ');
    router.all(route, (req, res, next) => {
      // HEAD is answered by GET's route; anything reaching here is not served on this path.
      res.setHeader('Allow', allow);
      next(
        new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${methods[0]}.`, {
          allow: methods,
        }),
      );
    });
  }
  return router;
}
