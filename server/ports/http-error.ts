/**
 * The error catalogue of every HTTP endpoint: a code, its status, and a sentence a
 * person can act on. Here, below the adapters, so the management API and the REST
 * channel raise the same class and one error middleware renders both.
 */
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
