import { HttpError } from '../../ports/http-error.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Account, Accounts } from '../../ports/accounts.ts';
import type { AuditActor, AuditTrail } from '../../ports/audit.ts';
import type { Role } from '../../ports/roles.ts';
import type { Sessions, StudioSession } from '../../ports/sessions.ts';
import { digest, newId, randomSecret } from './digests.ts';
import type { loginLimits } from './login-limits.ts';
import { hashPassword, needsRehash, passwordProblem, verifyNobody, verifyPassword } from './passwords.ts';

export interface SessionSettings {
  /** A session unused this long ends (ms). */
  readonly idleMs: number;
  /** A session ends this long after sign-in whatever the activity (ms). */
  readonly maxMs: number;
}

/** Where a request came from, for sessions and the audit trail. */
export interface RequestMeta {
  readonly ip: string;
  readonly userAgent: string;
}

export interface SignedIn {
  readonly account: Account;
  readonly session: StudioSession;
  /** The cookie's value: handed to the browser once, stored only as its digest. */
  readonly cookie: string;
}

/** Activity is written at most this often per session: a page's burst of requests costs one write. */
const TOUCH_EVERY_MS = 60_000;

export const actorOf = (account: Account, kind: 'account' | 'token' = 'account'): AuditActor => ({
  kind,
  accountId: account.id,
  email: account.email,
});

/** A short public handle for a session (never its id, which is the cookie's digest). */
export const sessionHandle = (session: StudioSession): string => digest(`handle:${session.id}`).slice(0, 24);

export interface PeopleDeps {
  readonly accounts: Accounts;
  readonly sessions: Sessions;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly now: () => number;
  readonly limits: ReturnType<typeof loginLimits>;
  readonly session: SessionSettings;
}

/**
 * Signing in and out: passwords checked against argon2id hashes under the login limits,
 * sessions in the store with idle and absolute timeouts. Every sign-in, failed sign-in and
 * sign-out is in the audit trail.
 */
export function people(deps: PeopleDeps) {
  const sessions = studioSessions(deps);
  return { ...sessions, ...passwords(deps, sessions.startSession), newAccountId: newId };
}

/** Studio sessions: started at a sign-in, found by their cookie under the idle and absolute timeouts, ended. */
function studioSessions(deps: PeopleDeps) {
  const { accounts, sessions, audit, now } = deps;

  const startSession = async (
    account: Account,
    meta: RequestMeta,
    method: StudioSession['method'],
  ): Promise<SignedIn> => {
    const cookie = randomSecret();
    const at = now();
    const session: StudioSession = {
      id: digest(cookie),
      accountId: account.id,
      csrfToken: randomSecret(),
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at + deps.session.maxMs,
      ip: meta.ip.slice(0, 64),
      userAgent: meta.userAgent.slice(0, 200),
      method,
    };
    await sessions.createSession(session);
    return { account, session, cookie };
  };

  return {
    startSession,

    /** The session and its account for a cookie's value, or null when it is unknown, ended or timed out. */
    async authenticate(cookie: string): Promise<{ account: Account; session: StudioSession } | null> {
      if (cookie.length < 20 || cookie.length > 100) return null;
      const session = await sessions.sessionById(digest(cookie));
      if (!session) return null;
      const at = now();
      if (at >= session.expiresAt || at - session.lastSeenAt >= deps.session.idleMs) {
        await sessions.deleteSession(session.id);
        return null;
      }
      const account = await accounts.accountById(session.accountId);
      if (!account) {
        await sessions.deleteSession(session.id);
        return null;
      }
      if (at - session.lastSeenAt >= TOUCH_EVERY_MS) await sessions.touchSession(session.id, at);
      return { account, session };
    },

    async logout(account: Account, session: StudioSession, meta: RequestMeta): Promise<void> {
      await sessions.deleteSession(session.id);
      await audit.record({ actor: actorOf(account), ip: meta.ip, action: 'logout' });
    },

    /** Ends every session of the account (but `keep`, when given). */
    async logoutEverywhere(
      account: Account,
      actor: AuditActor,
      meta: RequestMeta,
      keep?: StudioSession,
    ): Promise<number> {
      const ended = await sessions.deleteSessionsOf(account.id, keep?.id);
      await audit.record({
        actor,
        ip: meta.ip,
        action: 'session_revoked',
        target: account.id,
        details: { sessions: ended, everywhere: true },
      });
      return ended;
    },

    async listSessions(account: Account): Promise<StudioSession[]> {
      const at = now();
      return (await sessions.listSessions(account.id)).filter(
        (session) => at < session.expiresAt && at - session.lastSeenAt < deps.session.idleMs,
      );
    },

    /** Ends one session of the account, named by its handle; false when it has none such. */
    async revokeSession(account: Account, handle: string, actor: AuditActor, meta: RequestMeta): Promise<boolean> {
      const session = (await sessions.listSessions(account.id)).find((each) => sessionHandle(each) === handle);
      if (!session) return false;
      await sessions.deleteSession(session.id);
      await audit.record({
        actor,
        ip: meta.ip,
        action: 'session_revoked',
        target: account.id,
        details: { session: handle },
      });
      return true;
    },
  };
}

/** Signing in with a password, and setting a new one (which ends the account's other sessions). */
function passwords(deps: PeopleDeps, startSession: ReturnType<typeof studioSessions>['startSession']) {
  const { accounts, sessions, audit, now } = deps;
  return {
    /** Checks a password under the login limits; a new session on success. Throws 401 invalid_credentials or 429 rate_limited. */
    async login(email: string, password: string, meta: RequestMeta): Promise<SignedIn> {
      const typed = email.trim().toLowerCase();
      await deps.limits.check(`account:${digest(typed)}`, meta.ip);
      const account = await accounts.accountByEmail(typed);
      const ok = account?.passwordHash
        ? await verifyPassword(account.passwordHash, password)
        : await verifyNobody(password);
      if (!account || !ok) {
        await audit.record({
          actor: { kind: 'account', email: typed.slice(0, 254), ...(account ? { accountId: account.id } : {}) },
          ip: meta.ip,
          action: 'login_failed',
          details: { method: 'password' },
        });
        throw new HttpError(
          401,
          'invalid_credentials',
          'The email or password is not right. Check both and try again.',
        );
      }
      // Parameters raised since this hash was made: store one at today's cost while the password is at hand.
      if (needsRehash(account.passwordHash!))
        await accounts.updateAccount(account.id, { passwordHash: await hashPassword(password), updatedAt: now() });
      const signedIn = await startSession(account, meta, 'password');
      await audit.record({ actor: actorOf(account), ip: meta.ip, action: 'login', details: { method: 'password' } });
      return signedIn;
    },

    /** Sets a new password (checked against the policy) and ends the account's other sessions. */
    async setPassword(
      account: Account,
      password: string,
      actor: AuditActor,
      meta: RequestMeta,
      keep?: StudioSession,
    ): Promise<void> {
      const problem = passwordProblem(password, account.email);
      if (problem) throw new HttpError(400, 'weak_password', problem);
      await accounts.updateAccount(account.id, { passwordHash: await hashPassword(password), updatedAt: now() });
      const ended = await sessions.deleteSessionsOf(account.id, keep?.id);
      await audit.record({
        actor,
        ip: meta.ip,
        action: 'password_changed',
        target: account.id,
        details: { sessionsEnded: ended },
      });
    },
  };
}

export type People = ReturnType<typeof people>;

/** The roles in words for a refusal: "the owner role", "the owner or editor role". */
export function rolesInWords(roles: readonly Role[]): string {
  return roles.length === 1 ? `the ${roles[0]} role` : `the ${roles.slice(0, -1).join(', ')} or ${roles.at(-1)} role`;
}
