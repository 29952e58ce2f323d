/**
 * How an outbound call can fail. The engine maps every kind onto the step's
 * error policy (fatal | dialog | flag); async jobs retry the transient ones.
 */
export const INTEGRATION_ERROR_KINDS = [
  'network', // DNS failure, connection refused or reset
  'timeout', // no complete answer within the step's timeout
  'too_large', // the response passed the size cap
  'redirect', // too many redirects, or a redirect to somewhere unusable
  'forbidden_destination', // a private/loopback address or a host outside INTEGRATION_ALLOWED_HOSTS
  'status', // a non-2xx answer
  'invalid_body', // the answer is not what the step type's output schema says
  'invalid_params', // the step's parameters (after templating) do not fit its input schema
  'auth', // credentials could not be obtained (token endpoint failed, no user token)
  'step_code', // a bot's own step type (stepTypes in the definition) threw
  'cancelled', // this server stopped while the call ran (shutdown past SHUTDOWN_GRACE): not the upstream's fault
  'rate_limited', // a budget of this bot ran out (INTEGRATION_USER_RATE_LIMIT, a step type's daily budget): not retried
] as const;
export type IntegrationErrorKind = (typeof INTEGRATION_ERROR_KINDS)[number];

/** A classified failure of an integration call; `message` is a sentence a person can act on and never holds a secret. */
export class IntegrationError extends Error {
  override readonly name = 'IntegrationError';
  constructor(
    readonly kind: IntegrationErrorKind,
    message: string,
    /** The HTTP status, for `status` errors. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Transient failures worth retrying in an async job: the same call may succeed later. */
export function isRetryable(error: { kind: IntegrationErrorKind; status?: number }): boolean {
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'auth' || error.kind === 'cancelled')
    return true;
  if (error.kind === 'status')
    return error.status === undefined || error.status >= 500 || error.status === 429 || error.status === 408;
  return false;
}

/** Thrown at start-up for a definition or environment that cannot work; the message names what to fix. */
export class IntegrationConfigError extends Error {
  override readonly name = 'IntegrationConfigError';
}

/**
 * Kinds a step type's own code may give a failure it throws (`Object.assign(new Error(msg), { kind: 'auth' })`),
 * so a flag policy's `<flag>Error` and async retries tell "the key is wrong" from "the code broke".
 * Anything else it throws is `step_code`.
 */
export const STEP_CODE_ERROR_KINDS: readonly IntegrationErrorKind[] = [
  'auth',
  'status',
  'invalid_body',
  'invalid_params',
  'rate_limited',
];
