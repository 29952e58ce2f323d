import { HttpError } from '../../ports/http-error.ts';

/** A single sign-on that did not succeed, with the reason the person reads. */
export const ssoRefused = (reason: string) =>
  new HttpError(401, 'sso_failed', `Single sign-on did not succeed: ${reason}`);
