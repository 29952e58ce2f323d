/**
 * An error in the HTTP error catalogue (status, code, a sentence a person can act on),
 * raised by the REST channel. The API's error middleware renders it like its own
 * (it recognises `catalogue`), so the channel needs no import of the api adapter.
 */
export class RestError extends Error {
  readonly catalogue = true;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
