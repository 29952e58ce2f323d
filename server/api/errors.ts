import type { ErrorRequestHandler, RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../ports/logger.ts';

/** The error catalogue of every HTTP endpoint: a code, its status, and a sentence a person can act on. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json(errorBody('not_found', `Nothing is served at ${req.method} ${req.path}.`));
};

/** Turns any error into the catalogue's JSON body; unexpected ones are logged with a request id and never leak a stack. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof HttpError) {
      res.status(error.status).json(errorBody(error.code, error.message, error.details));
      return;
    }
    const status = (error as { status?: unknown }).status;
    if (status === 400 && (error as { type?: unknown }).type === 'entity.parse.failed') {
      res.status(400).json(errorBody('invalid_body', 'The request body is not valid JSON.'));
      return;
    }
    if (status === 413) {
      res.status(413).json(errorBody('payload_too_large', 'The request body is too large.'));
      return;
    }
    // Other client errors raised by middleware (body parsing, static files) keep
    // their status; their messages are written for people and hold no internals.
    if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: unknown }).expose === true) {
      const code = status === 415 ? 'unsupported_media_type' : status === 404 ? 'not_found' : 'invalid_body';
      res.status(status).json(errorBody(code, String((error as Error).message)));
      return;
    }
    const internal = internalError(logger, error);
    res.status(internal.status).json(errorBody(internal.code, internal.message, internal.details));
  };
}

/** An unexpected failure: logged in full with a request id; the caller is told only the id. */
export function internalError(logger: Logger, error: unknown): HttpError {
  const requestId = randomUUID();
  logger.error({ requestId, err: error }, 'request failed');
  return new HttpError(500, 'internal', `Something went wrong on our side. Quote request id ${requestId} when reporting it.`, { requestId });
}
