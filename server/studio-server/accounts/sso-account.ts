import type { Account, Accounts } from '../../ports/accounts.ts';
import type { AuditTrail } from '../../ports/audit.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Role } from '../../ports/roles.ts';
import { newId } from './digests.ts';
import { ssoRefused } from './sso-refused.ts';
import type { RequestMeta } from './people.ts';

interface SsoAccountDeps {
  readonly accounts: Accounts;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly now: () => number;
}

/** The person as the identity provider vouches for them. */
interface Person {
  /** The issuer and its subject: who they are for good. */
  readonly subject: string;
  /** Only when the provider verified it. */
  readonly email: string | undefined;
  readonly name: string | undefined;
  readonly role: Role;
}

/**
 * The studio account of a person signing in with the provider: found by their subject, or the first time by their
 * verified email (the account is then bound to the subject), or created with the role their claim maps to.
 */
export async function accountOfSubject(
  deps: SsoAccountDeps,
  person: Person,
  meta: RequestMeta,
): Promise<{ readonly account: Account; readonly created: boolean }> {
  const { subject, email, role } = person;
  let account: Account | null = await deps.accounts.accountByOidcSubject(subject);
  if (!account && email) {
    const byEmail = await deps.accounts.accountByEmail(email);
    if (byEmail && byEmail.oidcSubject === null)
      account = await deps.accounts.updateAccount(byEmail.id, { oidcSubject: subject, updatedAt: deps.now() });
  }
  if (account) return { account, created: false };
  if (!email) throw ssoRefused('the identity provider did not share a verified email address.');
  const created = await deps.accounts.createAccount({
    id: newId(),
    email,
    name: person.name ?? email,
    role,
    passwordHash: null,
    oidcSubject: subject,
    createdAt: deps.now(),
  });
  if (!created.ok) throw ssoRefused('an account with this email is bound to another identity.');
  await deps.audit.record({
    actor: { kind: 'account', accountId: created.account.id, email },
    ip: meta.ip,
    action: 'account_created',
    target: created.account.id,
    details: { role, through: 'oidc' },
  });
  return { account: created.account, created: true };
}

/** The role the provider's claim maps to, given at every sign-in; the only owner keeps theirs. */
export async function grantRole(
  deps: SsoAccountDeps,
  account: Account,
  role: Role,
  meta: RequestMeta,
): Promise<Account> {
  if (account.role === role) return account;
  const lastOwner = account.role === 'owner' && (await deps.accounts.countAccounts('owner')) <= 1;
  if (lastOwner) {
    deps.logger.warn(
      { event: 'sso_last_owner_kept', account: account.id },
      'the identity provider would take the owner role from the only owner; it is kept',
    );
    return account;
  }
  const from = account.role;
  const changed = (await deps.accounts.updateAccount(account.id, { role, updatedAt: deps.now() }))!;
  await deps.audit.record({
    actor: { kind: 'system' },
    ip: meta.ip,
    action: 'role_changed',
    target: changed.id,
    details: { email: changed.email, from, to: role, through: 'oidc' },
  });
  return changed;
}
