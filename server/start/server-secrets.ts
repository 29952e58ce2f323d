import type { Config } from '../config.ts';
import { persistentSecret } from '../secrets.ts';

/** The management API's function key and the session secret: configured, else generated once and kept in DATA_DIR. */
export async function serverSecrets(dataDir: string, config: Config) {
  const functionKey = await persistentSecret(dataDir, 'function-key', config.BOT_FUNCTION_KEY);
  if (functionKey.generated) {
    // Shown once, on the start that generated it, and never logged afterwards.
    process.stderr.write(
      `Generated a function key for the management API (kept in ${dataDir}): ${functionKey.value}\n`,
    );
  }
  const session = await persistentSecret(dataDir, 'session', config.SESSION_SECRET);
  return { functionKey: functionKey.value, session: session.value };
}
