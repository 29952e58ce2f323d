import type { Request } from 'express';
import type { z } from 'zod';
import {
  DEFAULT_JSON_BOUNDS,
  checkJsonBounds,
  describeJsonExcess,
  type JsonBounds,
} from '../../../shared/json-bounds.ts';
import { HttpError } from '../../ports/http-error.ts';

/** Most studio bodies are a form's worth: 16 KiB. Routes that take a definition pass their own limit. */
export const SMALL_BODY = 16 * 1024;

/**
 * Reads a JSON body of at most `limit` bytes (413 beyond, before reading on when Content-Length
 * says so), checks it against `bounds` before anything recurses into it, then against `schema`:
 * 415, 400 invalid_body and the path of the first problem otherwise. Compressed bodies are
 * refused: forms and definitions are small, and inflating is where size limits are lost.
 */
export async function readJson<T extends z.ZodType>(
  req: Request,
  schema: T,
  limit = SMALL_BODY,
  bounds: JsonBounds = DEFAULT_JSON_BOUNDS,
): Promise<z.infer<T>> {
  if (!req.is('application/json'))
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity')
    throw new HttpError(415, 'unsupported_media_type', 'Send the body uncompressed (no Content-Encoding).');
  const tooLarge = new HttpError(
    413,
    'payload_too_large',
    `The request body is over ${Math.round(limit / 1024)} KiB; send less.`,
  );
  if (Number(req.headers['content-length']) > limit) throw tooLarge;
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        req.resume();
        reject(tooLarge);
      } else chunks.push(chunk);
    });
    req.once('error', () => reject(new HttpError(400, 'invalid_body', 'The request body could not be read.')));
    req.once('end', () => failed || resolve(Buffer.concat(chunks, size)));
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'invalid_body', 'The request body is not valid JSON.');
  }
  const excess = checkJsonBounds(parsed, bounds);
  if (excess)
    throw new HttpError(400, 'invalid_body', `The request body is refused because ${describeJsonExcess(excess)}.`, {
      limit: excess.limit,
      max: excess.max,
    });
  return parseInput(schema, parsed, 'body');
}

/** Validates a value from outside (a body, a query); a 400 naming the first problem and where it is. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: 'body' | 'query' | 'path',
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const at = issue.path.map(String).join('.');
  const code = where === 'body' ? 'invalid_body' : 'invalid_parameter';
  const message =
    issue.code === 'unrecognized_keys'
      ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}`
      : issue.message;
  throw new HttpError(400, code, `${at ? `${at}: ` : ''}${message}.`, { ...(at ? { path: at } : {}) });
}
