import type { Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readConfig } from '../server/config.ts';
import { startServer, startupMessage, studioLines, type RunningServer } from '../server/main.ts';
import { persistentSecret } from '../server/secrets.ts';
import { createExternalApi } from './external-api/app.ts';

/**
 * `npm start`: the demo in one command. Starts the demo external API (the customer's
 * system: events, users, tracking, places, the long operation) on DEMO_API_PORT (3001),
 * then the chatbot server with what the demo bot needs filled in unless set:
 * INTEGRATION_ALLOWED_HOSTS=127.0.0.1 (the API is on loopback), DEMO_API_URL (the demo
 * services' base URL, named by demo/bot.json) and one BOT_FUNCTION_KEY shared by both,
 * so the API's trigger calls authenticate. Stops both on SIGINT/SIGTERM.
 */
export interface RunningDemo {
  readonly botUrl: string;
  readonly apiUrl: string;
  readonly server: RunningServer;
  /** The demo external API (its in-memory CRM state shows what the bot sent). */
  readonly api: ReturnType<typeof createExternalApi>;
  close(): Promise<void>;
}

export async function startDemo(baseEnv: Readonly<Record<string, string | undefined>>): Promise<RunningDemo> {
  const env: Record<string, string | undefined> = { ...baseEnv };
  env.INTEGRATION_ALLOWED_HOSTS ||= '127.0.0.1';
  const config = readConfig(env);
  const functionKey = await persistentSecret(path.resolve(config.DATA_DIR), 'function-key', config.BOT_FUNCTION_KEY);
  if (functionKey.generated) {
    process.stderr.write(
      `Generated a function key for the management API (kept in ${path.resolve(config.DATA_DIR)}): ${functionKey.value}\n`,
    );
  }

  // The bot's address is known only once it listens (PORT may be 0); the API reads it when it reports.
  let botUrl = `http://127.0.0.1:${config.PORT}`;
  const api = createExternalApi({
    get botUrl() {
      return botUrl;
    },
    botId: env.BOT_ID ?? 'demo',
    functionKey: functionKey.value,
    operationMs: Number(env.LONG_OPERATION_MS ?? 8000),
    successDialog: env.SUCCESS_DIALOG ?? 'longOperationSucceeded',
    failureDialog: env.FAILURE_DIALOG ?? 'longOperationFailed',
  });
  const apiPort = Number(env.DEMO_API_PORT ?? 3001);
  const http = await new Promise<Server>((resolve, reject) => {
    const server = api.listen(apiPort, '127.0.0.1');
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `the demo external API cannot listen on port ${apiPort}: it is already in use. Set DEMO_API_PORT to a free port.`
            : `the demo external API cannot listen on port ${apiPort}: ${error.message}`,
        ),
      ),
    );
  });
  const address = http.address();
  const apiUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : apiPort}`;
  // A long operation still running at shutdown is dropped: its report would find the bot gone anyway.
  const closeApi = () => new Promise<void>((resolve) => http.close(() => resolve()));
  env.DEMO_API_URL ||= `${apiUrl}/`;

  let server: RunningServer;
  try {
    server = await startServer({ ...config, BOT_FUNCTION_KEY: functionKey.value }, { env });
  } catch (error) {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    throw error;
  }
  botUrl = server.url;
  return {
    botUrl: server.url,
    apiUrl,
    server,
    api,
    async close() {
      http.closeAllConnections();
      await Promise.all([server.close(), closeApi()]);
    },
  };
}

async function main(): Promise<void> {
  try {
    const demo = await startDemo(process.env);
    process.stdout.write(
      `Demo external API is running at ${demo.apiUrl}\nChatbot is running at ${demo.botUrl} (open it in a browser for the demo page)\n${studioLines(demo.server)}`,
    );
    const stop = () => void demo.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    process.stderr.write(`${startupMessage(error)}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
