import { MAX_JSON_DEPTH, checkJsonBounds, describeJsonExcess, type JsonBounds } from '../../../shared/json-bounds.ts';
import { HttpError } from '../../ports/http-error.ts';

/**
 * Trigger bodies (at most 64 KiB) feed a dialog's templates: 10,000 values is far
 * above any real use, yet a 64 KiB body of bare numbers can hold three times that.
 */
export const TRIGGER_BODY_BOUNDS: JsonBounds = { maxDepth: MAX_JSON_DEPTH, maxNodes: 10_000 };

/**
 * Dataset pushes (at most 10 MB) legitimately carry thousands of rows of a few
 * dozen values each: a million values leaves space for that and still bounds the
 * work of one request.
 */
export const DATASET_BODY_BOUNDS: JsonBounds = { maxDepth: MAX_JSON_DEPTH, maxNodes: 1_000_000 };

/**
 * The 400 for a parsed body that breaks its endpoint's bounds, or undefined when
 * it is within them. Checked right after parsing, before validation, redaction,
 * storage or templating, all of which recurse and would overflow the stack on a
 * value nested thousands deep.
 */
export function bodyBoundsError(value: unknown, bounds: JsonBounds): HttpError | undefined {
  const excess = checkJsonBounds(value, bounds);
  if (!excess) return undefined;
  const advice =
    excess.limit === 'depth'
      ? `Nest objects and arrays at most ${excess.max} levels deep.`
      : `Send at most ${excess.max} values (objects, arrays, strings, numbers, …) in one request, e.g. by splitting it.`;
  return new HttpError(
    400,
    'invalid_body',
    `The request body is refused because ${describeJsonExcess(excess)}. ${advice}`,
    {
      limit: excess.limit,
      max: excess.max,
    },
  );
}
