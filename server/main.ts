import { unwatchFile, watchFile } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, readConfig } from './config.ts';
import { DefinitionError } from './definition/load.ts';
import { StepTypeModuleError } from './integrations/step-types/load-modules.ts';
import { startServer, type RunningServer } from './start/start-server.ts';

// The composition root lives in start/, one module per concern; this file is the command line's entry.
export { startServer, type ReloadOutcome, type RunningServer, type StartOptions } from './start/start-server.ts';

/** Run from the command line: start, stop cleanly on SIGINT/SIGTERM, and fail fast with one clear line. */
async function main(): Promise<void> {
  try {
    const server = await startServer(readConfig(process.env));
    process.stdout.write(`Chatbot is running at ${server.url}\n${studioLines(server)}`);
    const stopWatching = process.argv.includes('--watch') ? watchBot(server) : () => undefined;
    const stop = () => {
      stopWatching();
      void server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // An operator's `kill -HUP`: read the definition again without dropping a connection.
    process.on('SIGHUP', () => void server.reload());
  } catch (error) {
    process.stderr.write(`${startupMessage(error)}\n`);
    process.exit(1);
  }
}

/**
 * `npm run dev`: reloads when the definition or one of its step type modules changes. Polls
 * (stat), as editors save by replacing the file, which ends a watch on the old one; after each
 * reload the list is read again, since stepTypes may name other modules now.
 */
function watchBot(server: RunningServer): () => void {
  let watched: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    // An editor's save can be several writes: reload once they settle.
    timer = setTimeout(() => void server.reload().then(watch), 150);
  };
  const watch = () => {
    for (const file of watched) unwatchFile(file, changed);
    watched = [...server.files];
    for (const file of watched) watchFile(file, { interval: 250 }, changed);
  };
  watch();
  process.stdout.write(
    `Watching ${watched.length} file${watched.length === 1 ? '' : 's'} of the bot definition; saving one reloads it.\n`,
  );
  return () => {
    clearTimeout(timer);
    for (const file of watched) unwatchFile(file, changed);
  };
}

/** The studio's address and, while no owner exists, the one-time link that creates the first one. */
export function studioLines(server: Pick<RunningServer, 'studio'>): string {
  const lines = [`Studio: ${server.studio.url}`];
  if (server.studio.setupLink) {
    lines.push(
      `No studio owner yet. Open this one-time link within 72 hours to create the owner account:`,
      `  ${server.studio.setupLink}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One line a person can act on, for a start-up failure; the demo launcher prints it too. */
export function startupMessage(error: unknown): string {
  if (error instanceof ConfigError) return `Configuration error: ${error.message}`;
  if (error instanceof DefinitionError) return error.message;
  if (error instanceof StepTypeModuleError) return error.message;
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    return `Cannot start: the port is already in use (${(error as Error).message}). Set PORT to a free port.`;
  }
  return `Cannot start: ${(error as Error).message ?? String(error)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
