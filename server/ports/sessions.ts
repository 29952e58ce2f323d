/**
 * Signed-in studio sessions, kept in the store so they can be listed and revoked and so every
 * node sees the same ones. The cookie holds a random value; the store keys the session by its
 * SHA-256 digest, so a copy of the database does not sign anyone in.
 */
export interface StudioSession {
  /** SHA-256 (hex) of the cookie's value. */
  readonly id: string;
  readonly accountId: string;
  /** The value the page sends back in X-CSRF-Token on every write. */
  readonly csrfToken: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly lastSeenAt: number;
  /** Ends here whatever the activity (the absolute timeout). */
  readonly expiresAt: number;
  readonly ip: string;
  /** The browser as it named itself, cut to a bounded length; for the list of own sessions. */
  readonly userAgent: string;
  /** How the person signed in. */
  readonly method: 'password' | 'oidc' | 'setup';
}

export interface Sessions {
  createSession(session: StudioSession): Promise<void>;
  sessionById(id: string): Promise<StudioSession | null>;
  /** Records activity (the idle timeout counts from it). */
  touchSession(id: string, at: number): Promise<void>;
  deleteSession(id: string): Promise<boolean>;
  /** Ends every session of an account but `except`; answers how many ended. */
  deleteSessionsOf(accountId: string, except?: string): Promise<number>;
  /** An account's sessions, most recently active first. */
  listSessions(accountId: string): Promise<StudioSession[]>;
  /** Removes sessions that ended by either timeout before `now`; answers how many. */
  purgeExpiredSessions(now: number, idleMs: number): Promise<number>;
}
