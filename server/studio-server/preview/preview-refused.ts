import type { PreviewError, PreviewErrorCode } from '../../../shared/preview-protocol.ts';

/** A preview event the caller may not do now: answered with its code, never logged as a failure. */
export class Refused extends Error {
  constructor(
    readonly code: PreviewErrorCode,
    message: string,
    readonly problems?: PreviewError['problems'],
  ) {
    super(message);
  }
}
