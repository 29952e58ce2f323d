import type { ErrorRequestHandler, RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { HttpError } from '../ports/http-error.ts';
import type { Logger } from '../ports/logger.ts';
import { currentRequestId } from './request-id.ts';

// Raised by every HTTP adapter; kept importable from here, where the API's routes look for it.
export { HttpError };

/** The catalogue's error body; inside a request it names the request id, which the logs name too. */
export function errorBody(
  code: string,
  message: string,
  details?: Record<string, unknown>,
  requestId = currentRequestId(),
) {
  return { error: { code, message, ...(details ? { details } : {}), ...(requestId ? { requestId } : {}) } };
}

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json(errorBody('not_found', `Nothing is served at ${req.method} ${req.path}.`));
};

/** Turns any error into the catalogue's JSON body; unexpected ones are logged with a request id and never leak a stack. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof HttpError) {
      // Every 429 says when to come back, in the header clients and proxies read, not only in the body.
      const retryAfter = error.details?.retryAfterSeconds;
      if (error.status === 429 && typeof retryAfter === 'number' && !res.hasHeader('Retry-After'))
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
      res.status(error.status).json(errorBody(error.code, error.message, error.details));
      return;
    }
    const client = clientError(error);
    if (client) {
      res.status(client.status).json(errorBody(client.code, client.message));
      return;
    }
    const internal = internalError(logger, error);
    res.status(internal.status).json(errorBody(internal.code, internal.message, internal.details));
  };
}

/**
 * A client error raised by middleware (Express's body parser, static files), in
 * the catalogue's words. Their own messages can be library internals ("incorrect
 * header check" from zlib), so only the status and kind are kept. Undefined for
 * anything that is not a client error.
 */
function clientError(error: unknown): HttpError | undefined {
  const { status, type, expose } = error as { status?: unknown; type?: unknown; expose?: unknown };
  // The router's own 400 for a path parameter it cannot percent-decode (not marked expose).
  if (error instanceof URIError && status === 400)
    return new HttpError(400, 'invalid_parameter', 'A part of the URL is not valid percent-encoding.');
  if (typeof status !== 'number' || status < 400 || status >= 500 || expose !== true) return undefined;
  if (status === 413) return new HttpError(413, 'payload_too_large', 'The request body is too large.');
  if (status === 415) {
    return type === 'charset.unsupported'
      ? new HttpError(
          415,
          'unsupported_media_type',
          'Send the body as UTF-8 JSON (Content-Type: application/json; charset=utf-8).',
        )
      : new HttpError(
          415,
          'unsupported_media_type',
          'Content-Encoding is not supported; send the body as is, or gzip, deflate or br.',
        );
  }
  if (status === 404) return new HttpError(404, 'not_found', 'Nothing is served at this address.');
  const reason =
    type === 'entity.parse.failed'
      ? 'The request body is not valid JSON.'
      : type === 'request.aborted' || type === 'request.size.invalid'
        ? 'The request body ended before the length its Content-Length header announced.'
        : 'The request body could not be read (it may be compressed data that does not decode); check how it is sent.';
  return new HttpError(status, 'invalid_body', reason);
}

/** An unexpected failure: logged in full with a request id; the caller is told only the id. */
export function internalError(
  logger: Logger,
  error: unknown,
  requestId = currentRequestId() ?? randomUUID(),
): HttpError {
  logger.error({ requestId, err: error }, 'request failed');
  return new HttpError(
    500,
    'internal',
    `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
    { requestId },
  );
}
