import type { RequestHandler } from 'express';
import { HttpError } from '../../ports/http-error.ts';

/** A known path asked with a method it does not serve: 405 with the Allow header. */
export function methodNotAllowed(allow: string): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Allow', allow);
    next(
      new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${allow.split(', ')[0]}.`, {
        allow: allow.split(', '),
      }),
    );
  };
}
