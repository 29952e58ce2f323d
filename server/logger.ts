import { pino, type Logger as Pino } from 'pino';

/** Header and field names whose values never reach a log line. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-functions-key"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-functions-key"]',
  '*.token',
  '*.authToken',
  '*.password',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  'token',
  'authToken',
];

/**
 * The process logger: JSON lines on stdout, secrets censored. `context` adds fields
 * to every line from where it is written (the request id of the request being handled).
 */
export function createLogger(
  level: string,
  destination?: NodeJS.WritableStream,
  context?: () => Record<string, unknown>,
): Pino {
  return pino(
    {
      level,
      redact: { paths: REDACT, censor: '[redacted]' },
      base: { service: 'chatbot' },
      ...(context ? { mixin: context } : {}),
    },
    destination ?? process.stdout,
  );
}
