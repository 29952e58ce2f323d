import type { CallRecorder } from '../http/integration-log.ts';

export interface AuthContext {
  readonly variables: Readonly<Record<string, unknown>>;
  /** Where token requests made on this call's behalf are logged. */
  readonly record: CallRecorder;
}

export interface Authorization {
  readonly headers: Readonly<Record<string, string>>;
  /** The credential values used, so the log can scrub them wherever they appear. */
  readonly secrets: readonly string[];
}

/** Decides the credentials of one call. */
export interface Authenticator {
  authorize(context: AuthContext): Promise<Authorization>;
  /**
   * Called after a 401 with the authorization that was refused. True when the
   * credentials were renewed and the call is worth retrying once (OAuth only).
   */
  refreshAfterUnauthorized?(refused: Authorization): boolean;
  /**
   * The credential values this authenticator holds now for these variables, without a
   * call: scrubbed from what a step's own code says (its error messages), which may
   * quote anything it could read.
   */
  heldSecrets(variables: Readonly<Record<string, unknown>>): readonly string[];
}

export const noAuth: Authenticator = {
  authorize: () => Promise.resolve({ headers: {}, secrets: [] }),
  heldSecrets: () => [],
};
