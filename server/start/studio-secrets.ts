import type { AuditLog } from '../ports/audit.ts';
import type { PeopleStores } from '../ports/store-parts.ts';
import { persistentSecret } from '../secrets.ts';
import { secretKeys, type SecretKeys } from '../studio-server/secrets/secret-box.ts';
import { secretKeeper, type SecretKeeper } from '../studio-server/secrets/secret-keeper.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';

/** How the nodes of a cluster tell each other of a change. */
export interface StudioSignals {
  publish(topic: string, message: string): Promise<void>;
  subscribe(topic: string, listener: (message: string) => void): Promise<void>;
}

/**
 * The studio's secrets, opened under SECRETS_KEY (generated and kept in DATA_DIR when unset) and followed across the
 * cluster: a change on any node makes every node read them again and prepare the bot with them.
 */
export async function openStudioSecrets(
  options: {
    readonly config: Config;
    readonly logger: Logger;
    readonly clock: Clock;
    /** Where a generated SECRETS_KEY is kept on a single node. */
    readonly dataDir: string;
    /** Cluster mode: how a secret change on one node reaches the others. */
    readonly signals?: StudioSignals;
    readonly nodeId?: string;
  },
  stores: Pick<PeopleStores, 'secrets'>,
  audit: AuditLog,
  reprepare: (reason: string) => Promise<{ ok: boolean }>,
): Promise<{
  readonly keys: SecretKeys;
  readonly secrets: SecretKeeper;
  /** Told by the secrets' routes after a change on this node. */
  readonly changed: (name: string) => Promise<{ ok: boolean }>;
  /** Tells the other nodes that studio secrets changed: they read them again (the bot and the connectors follow). */
  readonly announce: () => Promise<void>;
}> {
  const { config, logger } = options;
  const key = await persistentSecret(options.dataDir, 'secrets-key', config.SECRETS_KEY);
  if (key.generated)
    logger.info(
      { event: 'secrets_key_generated', dir: options.dataDir },
      'generated a key for the studio secrets (kept in DATA_DIR); set SECRETS_KEY to choose one',
    );
  const keys = secretKeys(key.value, config.SECRETS_KEY_PREVIOUS);
  const secrets = secretKeeper({ store: stores.secrets, keys, audit, now: () => options.clock.now(), logger });
  // A secret that opens under neither key stops start-up here, naming the settings to check.
  await secrets.load();
  // Cluster mode: another node changed a secret; read them again and prepare the bot with them.
  await options.signals?.subscribe('studio-secrets', (message) => {
    if (message === options.nodeId) return;
    void secrets
      .load()
      .then(() => reprepare('studio secrets changed on another node'))
      .catch((error: unknown) =>
        logger.error(
          { event: 'secrets_reload_failed', err: error },
          'could not read the studio secrets changed on another node',
        ),
      );
  });
  const announce = async () => {
    await options.signals
      ?.publish('studio-secrets', options.nodeId ?? '')
      .catch((error: unknown) =>
        logger.warn(
          { event: 'secrets_signal_failed', error: (error as Error).message },
          'other nodes were not told of a secret change; they use it after their next restart or reload',
        ),
      );
  };
  const changed = async (name: string) => {
    await announce();
    return reprepare(`studio secret ${name} changed`);
  };
  return { keys, secrets, changed, announce };
}
