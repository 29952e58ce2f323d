import type { Config } from '../../config.ts';
import type { Role } from '../../ports/roles.ts';
import type { Accounts } from '../../ports/accounts.ts';
import type { AuditStore } from '../../ports/audit.ts';
import type { Sessions } from '../../ports/sessions.ts';
import { auditLog } from '../audit/audit-trail.ts';
import { accountView, type AccountView } from './account-admin.ts';
import { setupLinks, setupUrl } from './setup-links.ts';

/**
 * The studio's accounts from the command line (`chatbot users …`), on the store the server uses
 * (the same settings): for the first owner on a server that printed no link, and for an owner who
 * lost their password. Links are made of PUBLIC_URL, else HOST and PORT.
 */
export function accountsCommand(
  rooms: { readonly accounts: Accounts; readonly sessions: Sessions; readonly audit: AuditStore },
  config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>,
  close: () => Promise<void>,
) {
  const now = () => Date.now();
  const audit = auditLog(rooms.audit, now);
  // Setup links only: no session is started from the command line.
  const links = setupLinks({ accounts: rooms.accounts, sessions: rooms.sessions, audit, now });
  const base =
    config.PUBLIC_URL ?? `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${config.PORT}`;
  return {
    async link(role: Role, email: string | null, purpose: 'first_owner' | 'invitation' | 'reset'): Promise<string> {
      const { token } = await links.create({ role, email, createdBy: null, actor: { kind: 'system' }, purpose });
      return setupUrl(base, token);
    },
    async account(email: string): Promise<AccountView | undefined> {
      const found = await rooms.accounts.accountByEmail(email);
      return found ? accountView(found) : undefined;
    },
    async list(): Promise<AccountView[]> {
      return (await rooms.accounts.listAccounts()).map(accountView);
    },
    close,
  };
}
