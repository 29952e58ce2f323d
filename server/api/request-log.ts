import type { RequestHandler } from 'express';
import type { Logger } from '../ports/logger.ts';
import { clientIp, type ProxyTrust } from '../settings/client-ip.ts';

const REDACTED = '[redacted]';

/**
 * Query parameter names whose values are secrets, as the server reads them:
 * percent-decoded, lower-cased, without separators (`%43ODE`, `Code`, `api-key`
 * and `API_KEY` all count). `code` is the function key.
 */
const SECRET_NAMES = new Set([
  'code',
  'key',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'authtoken',
  'apikey',
  'clientsecret',
  'secret',
  'password',
  'xfunctionskey',
]);

/**
 * Percent-decodes without ever throwing, a few times over so a doubly encoded
 * name is still recognised. Text that is not valid UTF-8 percent-encoding has
 * only its ASCII escapes undone (every secret name is ASCII).
 */
function decodeLeniently(text: string): string {
  let current = text;
  for (let round = 0; round < 3 && current.includes('%'); round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

const nameOf = (raw: string) =>
  decodeLeniently(raw.replace(/\+/g, ' '))
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * Hides secrets in a request URL before it is logged. By name: every query
 * parameter whose decoded name is a secret name (SECRET_NAMES), however it was
 * spelt or repeated. By value: any path segment or parameter that, decoded,
 * holds one of `secrets` (the function key sent in the wrong place is still the key).
 */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  const holdsSecret = (raw: string) => {
    if (secrets.length === 0) return false;
    // Nothing to decode (the usual case): the text as sent is all there is to search.
    if (!raw.includes('%') && !raw.includes('+')) return secrets.some((secret) => raw.includes(secret));
    const decoded = decodeLeniently(raw.replace(/\+/g, ' '));
    return secrets.some((secret) => raw.includes(secret) || decoded.includes(secret));
  };
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const safePath = path
    .split('/')
    .map((segment) => (holdsSecret(segment) ? REDACTED : segment))
    .join('/');
  if (queryAt === -1) return safePath;
  const safeQuery = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      if (SECRET_NAMES.has(nameOf(rawName))) return `${rawName}=${REDACTED}`;
      return holdsSecret(pair) ? REDACTED : pair;
    })
    .join('&');
  return `${safePath}?${safeQuery}`;
}

/**
 * The one line a request gets, written when its response is finished; `started` is
 * process.hrtime.bigint() at arrival. `secrets` are values that must not appear in the URL logged.
 */
export function logRequest(
  logger: Logger,
  {
    method,
    url,
    status,
    ip,
    requestId,
  }: { method: string | undefined; url: string | undefined; status: number; ip: string; requestId?: string },
  started: bigint,
  secrets: readonly string[] = [],
): void {
  // Probes and scrapes come every few seconds: at info they would bury everything else.
  const path = (url ?? '').split('?')[0];
  const probe = path === '/healthz' || path === '/readyz' || path === '/metrics';
  (probe
    ? (fields: Record<string, unknown>, message: string) => logger.debug?.(fields, message)
    : logger.info.bind(logger))(
    {
      event: 'http_request',
      method,
      url: redactUrl(url ?? '', secrets),
      status,
      ip,
      ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      // Named here when the request is not run in the request context (request-id.ts).
      ...(requestId ? { requestId } : {}),
    },
    'request',
  );
}

/** One line per HTTP request, written when the response is finished; `ip` is the client as TRUST_PROXY reads it. */
export function requestLog(logger: Logger, secrets: readonly string[] = [], trust?: ProxyTrust): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () =>
      logRequest(
        logger,
        { method: req.method, url: req.originalUrl, status: res.statusCode, ip: clientIp(req, trust) },
        started,
        secrets,
      ),
    );
    next();
  };
}
