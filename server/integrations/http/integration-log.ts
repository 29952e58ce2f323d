import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Store } from '../../ports/store.ts';
import type { HttpRequest, HttpResponse, SafeHttpClient } from './safe-http-client.ts';
import { IntegrationError } from './integration-error.ts';
import { redactBodyText, redactHeaders, redactUrl, scrub } from './redact.ts';

/**
 * responseBody (and requestBody) in an integrationLog row is cut at this many
 * characters, with "…[truncated, N characters in all]" appended, so one chatty
 * API cannot bloat the log or an export. 4096 keeps a typical JSON answer whole.
 */
export const LOG_BODY_LIMIT = 4096;

/** One outbound call as it happened, before redaction. */
export interface CallRecord {
  readonly url: string;
  readonly method: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody?: string | Buffer;
  readonly responseStatus: number | null;
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly responseBody: Buffer | null;
  readonly durationMs: number;
  readonly error?: { readonly kind: string; readonly message: string };
}

/** Writes a call to the integration log; `secrets` are the credential values this call used. */
export type CallRecorder = (call: CallRecord, secrets: readonly string[]) => Promise<void>;

/** Who the calls are made for: background pulls have no user and are logged under this id. */
export const BACKGROUND_USER_ID = '(background)';

/** Appends integrationLog rows, redacted and truncated. A failing write is logged and never fails the call. */
export function integrationLogWriter(deps: {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Counts calls made for users (not background pulls) by status, with their latency, for the studio's insights. */
  insights?: () =>
    { integrationCall(userId: string, status: number | null, durationMs: number): Promise<void> } | undefined;
}): (userId: string) => CallRecorder {
  return (userId) => async (call, secrets) => {
    const data = toLogRecord(call, secrets);
    try {
      await deps.store.appendLog('integrationLog', { userId, timestamp: deps.clock.now(), data });
    } catch (error) {
      deps.logger.error({ err: error, url: data.url }, 'could not write an integration log row');
    }
    if (userId !== BACKGROUND_USER_ID)
      await deps.insights?.()?.integrationCall(userId, call.responseStatus, call.durationMs);
  };
}

/** The spec's integrationLog fields (plus `error` when the call failed), with secrets redacted. */
export function toLogRecord(call: CallRecord, secrets: readonly string[]): Record<string, unknown> {
  const requestType = call.requestHeaders['content-type'];
  const requestBody =
    call.requestBody === undefined ? null : redactBodyText(call.requestBody.toString('utf8'), requestType, secrets);
  const responseBody =
    call.responseBody === null
      ? null
      : redactBodyText(call.responseBody.toString('utf8'), call.responseHeaders?.['content-type'], secrets);
  return {
    url: redactUrl(call.url, secrets),
    method: call.method,
    requestBody: requestBody === null ? null : truncate(requestBody),
    requestHeaders: redactHeaders(call.requestHeaders, secrets),
    responseStatus: call.responseStatus,
    responseBody: responseBody === null ? null : truncate(responseBody),
    duration: Math.round(call.durationMs * 1000) / 1000,
    ...(call.error ? { error: { kind: call.error.kind, message: scrub(call.error.message, secrets) } } : {}),
  };
}

function truncate(text: string): string {
  return text.length <= LOG_BODY_LIMIT
    ? text
    : `${text.slice(0, LOG_BODY_LIMIT)}…[truncated, ${text.length} characters in all]`;
}

/** Sends through the safe client and records the call, whether it answered or failed. */
export async function sendAndRecord(
  http: SafeHttpClient,
  request: HttpRequest,
  record: CallRecorder,
  secrets: readonly string[],
): Promise<HttpResponse> {
  const started = performance.now();
  const base = {
    url: request.url,
    method: request.method.toUpperCase(),
    requestHeaders: request.headers ?? {},
    requestBody: request.body,
  };
  try {
    const response = await http.send(request);
    await record(
      {
        ...base,
        responseStatus: response.status,
        responseHeaders: response.headers,
        responseBody: response.body,
        durationMs: performance.now() - started,
      },
      secrets,
    );
    return response;
  } catch (error) {
    const failure =
      error instanceof IntegrationError ? error : new IntegrationError('network', (error as Error).message);
    await record(
      {
        ...base,
        responseStatus: null,
        responseBody: null,
        durationMs: performance.now() - started,
        error: { kind: failure.kind, message: failure.message },
      },
      secrets,
    );
    throw failure;
  }
}
