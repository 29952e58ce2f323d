import type { RequestHandler } from 'express';
import type { Logger } from '../ports/logger.ts';

const SECRET_QUERY = /([?&](?:code|token|key|access_token|api_key)=)[^&#]*/gi;

/** Hides secrets that arrive in the query string (the function key's `code`, tokens) before a URL is logged. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/** The one line a request gets, written when its response is finished; `started` is process.hrtime.bigint() at arrival. */
export function logRequest(logger: Logger, method: string | undefined, url: string | undefined, status: number, started: bigint): void {
  logger.info(
    {
      event: 'http_request',
      method,
      url: redactUrl(url ?? ''),
      status,
      ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
    },
    'request',
  );
}

/** One line per HTTP request, written when the response is finished. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => logRequest(logger, req.method, req.originalUrl, res.statusCode, started));
    next();
  };
}
