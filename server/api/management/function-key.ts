import type { RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../ports/http-error.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** True when the key sent matches; the caller passes the header and the `code` query values as received. */
export type FunctionKeyCheck = (header: unknown, query: unknown) => boolean;

/**
 * The spec's function key (section 5.1): in the `x-functions-key` header or,
 * failing that, the `code` query parameter (sent once). Both sides are hashed
 * first so the comparison is constant-time whatever the length of what was
 * sent. The key itself is never logged (request-log.ts redacts `code`).
 */
export function functionKeyCheck(functionKey: string): FunctionKeyCheck {
  const expected = digest(functionKey);
  return (header, query) => {
    const sent = typeof header === 'string' && header !== '' ? header : typeof query === 'string' ? query : undefined;
    return sent !== undefined && timingSafeEqual(digest(sent), expected);
  };
}

/** A missing key and a wrong key get the same 401, so a caller learns nothing from the difference. */
export const unauthorized = () =>
  new HttpError(
    401,
    'unauthorized',
    'A valid function key is required: send it in the x-functions-key header or the code query parameter.',
  );

export function requireFunctionKey(check: FunctionKeyCheck): RequestHandler {
  return (req, _res, next) => next(check(req.get('x-functions-key'), req.query.code) ? undefined : unauthorized());
}
