import { MAX_SECRET_BYTES, SECRET_NAME } from '../../../shared/studio-people.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { Logger } from '../../ports/logger.ts';
import type { AuditActor, AuditTrail } from '../../ports/audit.ts';
import type { SecretStore, StoredSecret } from '../../ports/secrets.ts';
import { seal, unseal, type SecretKeys } from './secret-box.ts';

// The name's rule and the size bound are the studio API's (shared/studio-people.ts), so the route and the keeper agree.
export { MAX_SECRET_BYTES, SECRET_NAME };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Write-only secrets: sealed under SECRETS_KEY before they reach the store, held open in this
 * process's memory only, and never handed out again — not to the studio, an export, a log line
 * or the audit trail (which names the secret only). They feed the definition's env lookup,
 * where a set environment variable of the same name wins.
 */
export function secretKeeper(deps: {
  store: SecretStore;
  keys: SecretKeys;
  audit: AuditTrail;
  now: () => number;
  logger: Logger;
}) {
  let values = new Map<string, string>();
  let meta: StoredSecret[] = [];
  /** Moves on every (re)load: a reader that derived something from the values knows when to derive it again. */
  let revision = 0;
  const listeners: Array<(name: string) => void> = [];

  const keeper = {
    /**
     * Reads and opens every stored secret; those sealed under SECRETS_KEY_PREVIOUS are sealed
     * again under SECRETS_KEY. Throws SecretKeyError (start-up stops) when one opens under neither.
     */
    async load(): Promise<{ count: number; resealed: number }> {
      const opened = await openAll(deps);
      values = opened.values;
      meta = opened.stored;
      revision += 1;
      return { count: opened.stored.length, resealed: opened.resealed };
    },

    /** The open value of a studio secret, for the env lookup only. */
    value(name: string): string | undefined {
      return values.get(name);
    },

    /** Changes whenever the values may have (each load): equal revisions, equal values. */
    revision(): number {
      return revision;
    },

    /** Names, times and authors: never a value. */
    list(): ReadonlyArray<Omit<StoredSecret, 'ciphertext'>> {
      return meta.map(({ name, updatedAt, updatedBy }) => ({ name, updatedAt, updatedBy }));
    },

    async set(name: string, value: string, actor: AuditActor, ip: string): Promise<void> {
      if (!SECRET_NAME.test(name))
        throw new HttpError(
          400,
          'invalid_parameter',
          'A secret is named like an environment variable: capital letters, digits and _, such as CRM_TOKEN.',
          { parameter: 'name' },
        );
      await keeper.write(new Map([[name, value]]), actor.email ?? actor.kind);
      await deps.audit.record({ actor, ip, action: 'secret_set', target: name });
      for (const listener of listeners) listener(name);
    },

    async remove(name: string, actor: AuditActor, ip: string): Promise<boolean> {
      if (!(await deps.store.deleteSecret(name))) return false;
      await keeper.load();
      await deps.audit.record({ actor, ip, action: 'secret_deleted', target: name });
      for (const listener of listeners) listener(name);
      return true;
    },

    /**
     * Sets (a value) and removes (null) several at once, with no audit entry of their own: for a
     * caller that records one entry for the whole change (Settings → Channels names the settings).
     */
    async write(changes: ReadonlyMap<string, string | null>, updatedBy: string): Promise<void> {
      for (const [name, value] of changes) {
        if (value === null) await deps.store.deleteSecret(name);
        else
          await deps.store.putSecret({
            name,
            ciphertext: seal(deps.keys, name, value),
            updatedAt: deps.now(),
            updatedBy,
          });
      }
      await keeper.load();
    },

    /** Told after this node changed a secret (the bot is prepared again; other nodes are signalled). */
    onChange(listener: (name: string) => void): void {
      listeners.push(listener);
    },

    /**
     * The env the definition reads: the process's environment first (a non-empty variable
     * wins), then the studio's secrets. A live view: a changed secret is seen at the next read.
     */
    env(base: Env): Env {
      return overlaid(
        base,
        (name) => values.get(name),
        // Only the names a definition can read: other parts of the studio keep values under names of their own (`channel:…`).
        () => [...values.keys()].filter((name) => SECRET_NAME.test(name)),
      );
    },
  };
  return keeper;
}

export type SecretKeeper = ReturnType<typeof secretKeeper>;

/** Opens every stored secret, sealing again under SECRETS_KEY those sealed under SECRETS_KEY_PREVIOUS. */
async function openAll(deps: {
  store: SecretStore;
  keys: SecretKeys;
  logger: Logger;
}): Promise<{ values: Map<string, string>; stored: StoredSecret[]; resealed: number }> {
  const stored = await deps.store.listSecrets();
  const values = new Map<string, string>();
  let resealed = 0;
  for (const secret of stored) {
    const { value, stale } = unseal(deps.keys, secret.name, secret.ciphertext);
    values.set(secret.name, value);
    if (stale) {
      await deps.store.putSecret({ ...secret, ciphertext: seal(deps.keys, secret.name, value) });
      resealed += 1;
    }
  }
  if (resealed > 0)
    deps.logger.info(
      { event: 'secrets_resealed', count: resealed },
      'studio secrets sealed under SECRETS_KEY_PREVIOUS were sealed again under SECRETS_KEY',
    );
  return { values, stored, resealed };
}

/** `base` with the secrets beneath it: a non-empty variable of `base` wins; read live at every lookup. */
function overlaid(base: Env, secret: (name: string) => string | undefined, names: () => Iterable<string>): Env {
  const lookup = (name: string) => {
    const own = base[name];
    return own !== undefined && own !== '' ? own : secret(name);
  };
  return new Proxy({} as Env, {
    get: (_target, name) => (typeof name === 'string' ? lookup(name) : undefined),
    has: (_target, name) => typeof name === 'string' && lookup(name) !== undefined,
    ownKeys: () => [...new Set([...Object.keys(base), ...names()])],
    getOwnPropertyDescriptor: (_target, name) =>
      typeof name === 'string' && lookup(name) !== undefined
        ? { value: lookup(name), enumerable: true, configurable: true, writable: false }
        : undefined,
  });
}

/**
 * The environment-variable names a definition reads (every string under a key ending in `Env`:
 * tokenEnv, passwordEnv, clientSecretEnv, baseUrlEnv, …) with where each is used.
 */
export function namesInDefinition(definition: unknown): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const stack: Array<{ value: unknown; path: string }> = [{ value: definition, path: '' }];
  let budget = 200_000;
  while (stack.length > 0 && budget-- > 0) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }));
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (/Env$/.test(key) && typeof item === 'string' && SECRET_NAME.test(item))
          found.set(item, [...(found.get(item) ?? []), at]);
        else stack.push({ value: item, path: at });
      }
    }
  }
  return found;
}
