import { HttpError } from '../../ports/http-error.ts';
import type { Account, Accounts } from '../../ports/accounts.ts';
import type { AuditActor, AuditTrail } from '../../ports/audit.ts';
import type { Role } from '../../ports/roles.ts';
import type { Sessions } from '../../ports/sessions.ts';

/** An account as the studio shows it: never its password's hash. */
export interface AccountView {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly password: boolean;
  readonly singleSignOn: boolean;
  readonly createdAt: string;
}

export const accountView = (account: Account): AccountView => ({
  id: account.id,
  email: account.email,
  name: account.name,
  role: account.role,
  password: account.passwordHash !== null,
  singleSignOn: account.oidcSubject !== null,
  createdAt: new Date(account.createdAt).toISOString(),
});

const lastOwner = () =>
  new HttpError(
    409,
    'last_owner',
    'This is the only owner: make another account an owner first, so someone can still manage accounts and secrets.',
  );
const notFound = () => new HttpError(404, 'not_found', 'There is no account with this id; it may have been deleted.');

/** Owners manage accounts: roles and names change, accounts go; the last owner always stays. */
export function accountAdmin(deps: { accounts: Accounts; sessions: Sessions; audit: AuditTrail; now: () => number }) {
  const { accounts, audit } = deps;
  return {
    async list(): Promise<AccountView[]> {
      return (await accounts.listAccounts()).map(accountView);
    },

    async update(
      id: string,
      change: { role?: Role; name?: string },
      actor: AuditActor,
      ip: string,
    ): Promise<AccountView> {
      const before = await accounts.accountById(id);
      if (!before) throw notFound();
      if (
        change.role !== undefined &&
        change.role !== 'owner' &&
        before.role === 'owner' &&
        (await accounts.countAccounts('owner')) <= 1
      )
        throw lastOwner();
      const after = await accounts.updateAccount(id, { ...change, updatedAt: deps.now() });
      if (!after) throw notFound();
      if (change.role !== undefined && change.role !== before.role) {
        await audit.record({
          actor,
          ip,
          action: 'role_changed',
          target: id,
          details: { email: after.email, from: before.role, to: after.role },
        });
      }
      if (change.name !== undefined && change.name !== before.name) {
        await audit.record({
          actor,
          ip,
          action: 'account_updated',
          target: id,
          details: { email: after.email, name: { from: before.name, to: after.name } },
        });
      }
      return accountView(after);
    },

    async remove(id: string, actor: AuditActor, ip: string): Promise<void> {
      const account = await accounts.accountById(id);
      if (!account) throw notFound();
      if (account.role === 'owner' && (await accounts.countAccounts('owner')) <= 1) throw lastOwner();
      await deps.sessions.deleteSessionsOf(id);
      await accounts.deleteAccount(id);
      await audit.record({
        actor,
        ip,
        action: 'account_deleted',
        target: id,
        details: { email: account.email, role: account.role },
      });
    },
  };
}

export type AccountAdmin = ReturnType<typeof accountAdmin>;
