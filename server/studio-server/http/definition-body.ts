import type { Request } from 'express';
import { z } from 'zod';
import { checkJsonBounds, describeJsonExcess } from '../../../shared/json-bounds.ts';
import { DEFINITION_BOUNDS, MAX_DEFINITION_BYTES, nestedDeeperThan } from '../../definition/read-source.ts';
import { HttpError } from '../../ports/http-error.ts';
import { parseInput } from './request-body.ts';

/** A definition of at most 5 MB, with room for the few fields around it. */
export const DEFINITION_BODY_LIMIT = MAX_DEFINITION_BYTES + 64 * 1024;

const tooLarge = () =>
  new HttpError(
    413,
    'payload_too_large',
    `The request body is over ${Math.round(DEFINITION_BODY_LIMIT / 1024 / 1024)} MB; a definition may have at most 5 MB.`,
  );

/**
 * The body as text, refused past the limit before it is all read (by its Content-Length when it
 * declares one). Compressed bodies are refused: a definition is text a client sends as is.
 */
export function readBodyText(req: Request, limit = DEFINITION_BODY_LIMIT): Promise<string> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity')
    return Promise.reject(
      new HttpError(415, 'unsupported_media_type', 'Send the body uncompressed (no Content-Encoding).'),
    );
  if (Number(req.headers['content-length']) > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      if (failed) return;
      failed = true;
      req.removeListener('data', onData);
      // The rest is read and dropped, so the answer reaches a client that is still sending.
      req.resume();
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once(
      'error',
      () => !failed && reject(new HttpError(400, 'invalid_body', 'The request body could not be read.')),
    );
    req.once('end', () => !failed && resolve(Buffer.concat(chunks, size).toString('utf8')));
  });
}

/**
 * A JSON request body checked against `schema`: the media type, the size and (one level above a
 * definition's) nesting before parsing, then the definition's bounds before the schema walks it.
 */
export async function jsonBody<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  if (!req.is('application/json'))
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  const text = await readBodyText(req);
  if (nestedDeeperThan(text, DEFINITION_BOUNDS.maxDepth + 1)) {
    throw new HttpError(
      400,
      'invalid_body',
      `The request body is refused because it is nested deeper than ${DEFINITION_BOUNDS.maxDepth} levels. Nest objects and arrays at most ${DEFINITION_BOUNDS.maxDepth} levels deep.`,
      { limit: 'depth', max: DEFINITION_BOUNDS.maxDepth },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_body', 'The request body is not valid JSON.');
  }
  const definition = (value as { definition?: unknown } | null)?.definition;
  if (definition !== undefined) boundedDefinition(definition);
  return parseInput(schema, value, 'body');
}

/** Refuses a definition past DEFINITION_BOUNDS (depth 32, 500,000 values) before anything recurses into it. */
export function boundedDefinition(value: unknown): unknown {
  const excess = checkJsonBounds(value, DEFINITION_BOUNDS);
  if (!excess) return value;
  throw new HttpError(400, 'invalid_body', `The definition is refused because ${describeJsonExcess(excess)}.`, {
    limit: excess.limit,
    max: excess.max,
  });
}
