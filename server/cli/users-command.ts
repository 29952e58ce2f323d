import { ConfigError, readConfig, type Config } from '../config.ts';
import { ROLES, type Role } from '../ports/roles.ts';
import type { CommandIo } from './check-command.ts';

/** The studio's accounts on the server's store, as `chatbot users` uses them (server/studio-server/accounts/accounts-command.ts). */
export interface AccountsCommand {
  link(role: Role, email: string | null, purpose: 'first_owner' | 'invitation' | 'reset'): Promise<string>;
  account(email: string): Promise<{ readonly role: Role } | undefined>;
  list(): Promise<readonly { readonly role: Role; readonly email: string; readonly name: string }[]>;
  close(): Promise<void>;
}

export const USERS_USAGE = [
  'users add --role <owner|editor|analyst|viewer> [--email <address>]   print a one-time studio setup link (72 h) for a new account',
  'users reset-password --email <address>   print a one-time link that sets a new password for that account',
  'users list   list the studio accounts',
].join('\n  chatbot ');

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/**
 * `chatbot users …`: the studio's accounts on the server's store, with the server's settings
 * (DATA_DIR or MONGODB_URL, PUBLIC_URL). Prints links on stdout, for the operator's eyes only.
 */
export async function usersCommand(
  args: readonly string[],
  io: CommandIo,
  openAccounts: (config: Config) => Promise<AccountsCommand>,
): Promise<number> {
  const [action, ...rest] = args;
  const usage = () => {
    io.stderr.write(`Usage:\n  chatbot ${USERS_USAGE}\n`);
    return 2;
  };
  if (action !== 'add' && action !== 'reset-password' && action !== 'list') return usage();
  let accounts;
  try {
    accounts = await openAccounts(readConfig(io.env));
  } catch (error) {
    io.stderr.write(
      `${error instanceof ConfigError ? 'Configuration error: ' : 'Cannot open the store: '}${(error as Error).message}\n`,
    );
    return 1;
  }
  try {
    if (action === 'list') {
      for (const account of await accounts.list())
        io.stdout.write(`${account.role.padEnd(8)} ${account.email}  ${account.name}\n`);
      return 0;
    }
    const email = option(rest, '--email')?.trim().toLowerCase();
    if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) {
      io.stderr.write('--email must be an email address such as ana@example.com.\n');
      return 2;
    }
    if (action === 'add') {
      const role = option(rest, '--role');
      if (!role || !(ROLES as readonly string[]).includes(role)) return usage();
      if (email && (await accounts.account(email))) {
        io.stderr.write(
          `An account with ${email} exists already; use \`chatbot users reset-password --email ${email}\` for a new password.\n`,
        );
        return 1;
      }
      const link = await accounts.link(role as Role, email ?? null, role === 'owner' ? 'first_owner' : 'invitation');
      io.stdout.write(
        `Open this one-time link within 72 hours to create the ${role} account${email ? ` for ${email}` : ''}:\n  ${link}\n`,
      );
      return 0;
    }
    if (!email) return usage();
    const account = await accounts.account(email);
    if (!account) {
      io.stderr.write(`There is no studio account with ${email}. \`chatbot users list\` shows them.\n`);
      return 1;
    }
    const link = await accounts.link(account.role, email, 'reset');
    io.stdout.write(
      `Open this one-time link within 72 hours to set a new password for ${email} (their sessions end):\n  ${link}\n`,
    );
    return 0;
  } finally {
    await accounts.close();
  }
}
