import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Role } from '../ports/studio/roles.ts';
import { openMongoStore } from '../stores/mongo/mongo-store.ts';
import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { openPeopleRooms } from '../stores/studio-rooms.ts';
import { accountView, type AccountView } from '../studio/accounts/account-admin.ts';
import { setupLinks, setupUrl } from '../studio/accounts/setup-links.ts';
import { auditLog } from '../studio/audit/audit-trail.ts';

/**
 * The studio's accounts from the command line (`chatbot users …`), on the store the server uses
 * (the same settings): for the first owner on a server that printed no link, and for an owner who
 * lost their password. Links are made of PUBLIC_URL, else HOST and PORT.
 */
export async function openAccountsCommand(config: Config) {
  let store;
  if (config.MONGODB_URL) store = await openMongoStore({ url: config.MONGODB_URL });
  else {
    const dataDir = path.resolve(config.DATA_DIR);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    store = openSqliteStore({ file: path.join(dataDir, 'chatbot.sqlite') });
  }
  try {
    const rooms = await openPeopleRooms(store);
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
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
