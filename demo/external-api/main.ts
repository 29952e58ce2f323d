import { pathToFileURL } from 'node:url';
import { createExternalApi } from './app.ts';

/**
 * Runs the demo external API on its own port next to the bot:
 *   BOT_FUNCTION_KEY=... node dist/demo/external-api/main.js   (or: npx tsx demo/external-api/main.ts)
 * EXTERNAL_API_PORT (3001), BOT_URL (http://127.0.0.1:3000), BOT_ID (demo),
 * LONG_OPERATION_MS (20000), SUCCESS_DIALOG (longOperationSucceeded), FAILURE_DIALOG (longOperationFailed).
 */
function main(): void {
  const env = process.env;
  const functionKey = env.BOT_FUNCTION_KEY;
  if (!functionKey) {
    process.stderr.write(
      "BOT_FUNCTION_KEY: must be set to the bot's function key, so the demo external API can call the trigger endpoint.\n",
    );
    process.exit(1);
  }
  const port = Number(env.EXTERNAL_API_PORT ?? 3001);
  const app = createExternalApi({
    botUrl: (env.BOT_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, ''),
    botId: env.BOT_ID ?? 'demo',
    functionKey,
    operationMs: Number(env.LONG_OPERATION_MS ?? 20_000),
    successDialog: env.SUCCESS_DIALOG ?? 'longOperationSucceeded',
    failureDialog: env.FAILURE_DIALOG ?? 'longOperationFailed',
  });
  app.listen(port, env.HOST ?? '127.0.0.1', () =>
    process.stdout.write(`Demo external API at http://${env.HOST ?? '127.0.0.1'}:${port}\n`),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
