import type { RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../errors.ts';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * The spec's function key (section 5.1): in the `code` query parameter or the
 * `x-functions-key` header. Both sides are hashed first so the comparison is
 * constant-time whatever the length of what was sent. A missing key and a
 * wrong key get the same 401, so a caller learns nothing from the difference.
 * The key itself is never logged (request-log.ts redacts `code`).
 */
export function requireFunctionKey(functionKey: string): RequestHandler {
  const expected = digest(functionKey);
  return (req, _res, next) => {
    const header = req.get('x-functions-key');
    const query = req.query.code;
    const sent = typeof header === 'string' && header !== '' ? header : typeof query === 'string' ? query : undefined;
    if (sent !== undefined && timingSafeEqual(digest(sent), expected)) return next();
    next(
      new HttpError(
        401,
        'unauthorized',
        'A valid function key is required: send it in the x-functions-key header or the code query parameter.',
      ),
    );
  };
}
