#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { setTelegramWebhookFromConfig } from '../channels/telegram/telegram-webhook-command.ts';
import type { Config } from '../config.ts';
import { openScratchStore, openStore, storeRooms } from '../start/open-store.ts';
import { accountsCommand } from '../studio-server/accounts/accounts-command.ts';
import { CHECK_USAGE, checkCommand, type CommandIo } from './check-command.ts';
import { COMPARE_USAGE, compareCommand } from './compare-command.ts';
import { PULL_USAGE, PUSH_USAGE, pullCommand, pushCommand } from './pull-push-commands.ts';
import { TEST_USAGE, testCommand } from './test-command.ts';
import { TELEGRAM_USAGE, telegramCommand } from './telegram-command.ts';
import { USERS_USAGE, usersCommand } from './users-command.ts';

/**
 * The studio's accounts on the store the server's settings name. This entry wires, as server/main.ts
 * does: the commands themselves reach the store, the studio and the channels through what it hands them.
 */
async function openAccounts(config: Config) {
  // Beside a running server: the store's locks are shared, as another process writes it too.
  const store = await openStore(config, { shared: true });
  try {
    return accountsCommand(await storeRooms(store).people(), config, () => store.close());
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The bot author's commands; each takes its arguments and the streams, and answers an exit code. */
export const COMMANDS: Record<
  string,
  { usage: string; run: (args: readonly string[], io: CommandIo) => Promise<number> }
> = {
  check: { usage: CHECK_USAGE, run: checkCommand },
  test: { usage: TEST_USAGE, run: (args, io) => testCommand(args, io.stdout, openScratchStore) },
  compare: { usage: COMPARE_USAGE, run: (args, io) => compareCommand(args, io.stdout) },
  pull: { usage: PULL_USAGE, run: pullCommand },
  push: { usage: PUSH_USAGE, run: pushCommand },
  users: { usage: USERS_USAGE, run: (args, io) => usersCommand(args, io, openAccounts) },
  telegram: { usage: TELEGRAM_USAGE, run: (args, io) => telegramCommand(args, io, setTelegramWebhookFromConfig) },
};

export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    const usage = Object.values(COMMANDS)
      .map((c) => `  chatbot ${c.usage}`)
      .join('\n');
    io.stderr.write(
      `${name === undefined || name === '--help' ? '' : `Unknown command "${name}".\n`}Usage:\n${usage}\n`,
    );
    return name === '--help' ? 0 : 2;
  }
  return command.run(args, io);
}

/** Whether this module is the program: npx and npm's bin folder start it through a symlink, which Node resolves for import.meta.url. */
function isProgram(): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(started)).href;
  } catch {
    return false;
  }
}

if (isProgram()) {
  runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`chatbot: ${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
