import { HttpError } from '../../ports/http-error.ts';
import type { Account, Accounts, SetupLink } from '../../ports/accounts.ts';
import type { AuditActor, AuditTrail } from '../../ports/audit.ts';
import type { Role } from '../../ports/roles.ts';
import type { Sessions } from '../../ports/sessions.ts';
import { digest, newId, randomSecret } from './digests.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import type { People, RequestMeta, SignedIn } from './people.ts';

/** How long a setup link works: long enough to reach a colleague by email, short enough not to linger. */
export const SETUP_LINK_TTL_MS = 72 * 3_600_000;

/** Where the studio's page reads the token: after `#`, which a browser never sends, so no log or proxy sees it. */
export const setupUrl = (baseUrl: string, token: string): string =>
  `${baseUrl.replace(/\/$/, '')}/studio/setup#${token}`;

export interface CreatedLink {
  readonly token: string;
  readonly link: SetupLink;
}

const emailTaken = () =>
  new HttpError(
    409,
    'email_taken',
    'An account with this email exists already; sign in with it, or choose another email.',
  );

const invalid = () =>
  new HttpError(
    404,
    'setup_link_invalid',
    'This setup link is not valid: it was used already, has expired, or was mistyped. Ask an owner for a new one.',
  );

/**
 * One-time setup links: the first owner's (printed at start, or by `chatbot users add`), an
 * owner's invitation to a colleague, and a password reset (`chatbot users reset-password`). A
 * link that names an email belongs to that person: when an account with that email exists, it
 * sets a new password for it; else it creates the account with the link's role.
 */
export function setupLinks(deps: {
  accounts: Accounts;
  sessions: Sessions;
  audit: AuditTrail;
  now: () => number;
  /** Absent on the command line, which only makes links. */ people?: People;
}) {
  const { accounts, audit, now } = deps;
  /** The link a token opens while it is valid; a token longer than any made is none. */
  const findLink = async (token: string) =>
    token.length <= 100 ? await accounts.findSetupLink(digest(token), now()) : null;
  return {
    create: (input: LinkRequest) => createLink(deps, input),

    /** What the setup page shows before the form: the role, and the email when the link names one. */
    async check(token: string): Promise<{ role: Role; email: string | null; existing: boolean }> {
      const link = await findLink(token);
      if (!link) throw invalid();
      const existing = link.email ? (await accounts.accountByEmail(link.email)) !== null : false;
      return { role: link.role, email: link.email, existing };
    },

    /** Uses the link once: creates the account (or sets the named account's password) and signs its holder in. */
    async complete(
      input: { token: string; email: string; name: string; password: string },
      meta: RequestMeta,
    ): Promise<SignedIn> {
      const hash = digest(input.token);
      const peek = await findLink(input.token);
      if (!peek) throw invalid();
      const email = (peek.email ?? input.email).trim().toLowerCase();
      const problem = passwordProblem(input.password, email);
      if (problem) throw new HttpError(400, 'weak_password', problem);
      const existing = await accounts.accountByEmail(email);
      if (existing && !peek.email) throw emailTaken();
      const passwordHash = await hashPassword(input.password);
      // Taken only now, once the form is right: a typo in the password does not burn the link.
      const link = await accounts.takeSetupLink(hash, now());
      if (!link) throw invalid();
      const account = await holdersAccount(deps, link, { ...input, email, passwordHash }, existing, meta);
      if (!deps.people) throw new Error('setup links are completed by the server, not the command line');
      const signedIn = await deps.people.startSession(account, meta, 'setup');
      await audit.record({
        actor: { kind: 'account', accountId: account.id, email },
        ip: meta.ip,
        action: 'login',
        details: { method: 'setup' },
      });
      return signedIn;
    },

    /** Pending invitations, for the accounts screen (never their tokens). */
    async pending(): Promise<
      Array<{ id: string; role: Role; email: string | null; createdAt: number; expiresAt: number }>
    > {
      return (await accounts.listSetupLinks(now())).map((link) => ({
        id: link.tokenHash.slice(0, 24),
        role: link.role,
        email: link.email,
        createdAt: link.createdAt,
        expiresAt: link.expiresAt,
      }));
    },

    async cancel(id: string, actor: AuditActor, ip: string): Promise<boolean> {
      const link = (await accounts.listSetupLinks(now())).find((each) => each.tokenHash.slice(0, 24) === id);
      if (!link || !(await accounts.deleteSetupLink(link.tokenHash))) return false;
      await audit.record({
        actor,
        ip,
        action: 'setup_link_cancelled',
        ...(link.email ? { target: link.email } : {}),
        details: { role: link.role },
      });
      return true;
    },
  };
}

export type SetupLinks = ReturnType<typeof setupLinks>;

/**
 * The account a setup link's holder gets: the named account with its new password (its sessions ended), or a new
 * account with the link's role.
 */
async function holdersAccount(
  deps: {
    readonly accounts: Accounts;
    readonly sessions: Sessions;
    readonly audit: AuditTrail;
    readonly now: () => number;
  },
  link: SetupLink,
  input: { readonly email: string; readonly name: string; readonly passwordHash: string },
  existing: Account | null,
  meta: RequestMeta,
): Promise<Account> {
  const { accounts, audit, now } = deps;
  const { email, passwordHash } = input;
  if (existing) {
    const account = (await accounts.updateAccount(existing.id, { passwordHash, updatedAt: now() }))!;
    const ended = await deps.sessions.deleteSessionsOf(account.id);
    await audit.record({
      actor: { kind: 'account', accountId: account.id, email },
      ip: meta.ip,
      action: 'password_changed',
      target: account.id,
      details: { through: 'setup_link', sessionsEnded: ended },
    });
    return account;
  }
  const created = await accounts.createAccount({
    id: newId(),
    email,
    name: input.name.trim(),
    role: link.role,
    passwordHash,
    createdAt: now(),
  });
  if (!created.ok) throw emailTaken();
  await audit.record({
    actor: { kind: 'account', accountId: created.account.id, email },
    ip: meta.ip,
    action: 'account_created',
    target: created.account.id,
    details: { role: created.account.role, through: 'setup_link', invitedBy: link.createdBy },
  });
  return created.account;
}

/** What a new setup link is for, who makes it, and the role it gives. */
interface LinkRequest {
  role: Role;
  email: string | null;
  createdBy: Account | null;
  actor: AuditActor;
  ip?: string;
  purpose: 'first_owner' | 'invitation' | 'reset';
}

/** A new setup link: only its token's digest is stored; the token is handed out once. */
async function createLink(
  deps: { readonly accounts: Accounts; readonly audit: AuditTrail; readonly now: () => number },
  input: LinkRequest,
): Promise<CreatedLink> {
  const { accounts, audit, now } = deps;
  const token = randomSecret();
  const at = now();
  const link: SetupLink = {
    tokenHash: digest(token),
    role: input.role,
    email: input.email?.toLowerCase() ?? null,
    createdBy: input.createdBy?.id ?? null,
    createdAt: at,
    expiresAt: at + SETUP_LINK_TTL_MS,
  };
  await accounts.saveSetupLink(link);
  await audit.record({
    actor: input.actor,
    ...(input.ip ? { ip: input.ip } : {}),
    action: 'setup_link_created',
    ...(link.email ? { target: link.email } : {}),
    details: { role: link.role, purpose: input.purpose, expiresAt: new Date(link.expiresAt).toISOString() },
  });
  return { token, link };
}
