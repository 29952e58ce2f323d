import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** A key to seal secrets with, and the short id an envelope names it by. */
interface SealingKey {
  readonly key: Buffer;
  readonly id: string;
}

export interface SecretKeys {
  readonly current: SealingKey;
  /** The key SECRETS_KEY replaced: envelopes it sealed still open, and are sealed again under the current key. */
  readonly previous?: SealingKey;
}

/** Raised when an envelope opens under neither key: its message names the settings to check, never a value. */
export class SecretKeyError extends Error {
  override readonly name = 'SecretKeyError';
}

/**
 * The AES-256 key from SECRETS_KEY (any text of 32 characters or more) by HKDF-SHA-256, so a
 * passphrase-like setting still gives a uniformly random key; the id is an HMAC of the key,
 * which names it without revealing it.
 */
function sealingKey(setting: string): SealingKey {
  const key = Buffer.from(
    hkdfSync('sha256', Buffer.from(setting, 'utf8'), 'chatbot studio secrets', 'aes-256-gcm v1', 32),
  );
  return { key, id: createHmac('sha256', key).update('key id').digest('base64url').slice(0, 8) };
}

export function secretKeys(current: string, previous?: string): SecretKeys {
  return { current: sealingKey(current), ...(previous ? { previous: sealingKey(previous) } : {}) };
}

/**
 * Seals a secret: AES-256-GCM with a fresh 96-bit IV, the secret's name as additional data (so
 * an envelope moved to another name does not open). `v1.<key id>.<iv>.<ciphertext>.<tag>`, base64url.
 */
export function seal(keys: SecretKeys, name: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [
    'v1',
    keys.current.id,
    iv.toString('base64url'),
    sealed.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** Opens an envelope; `stale` when it was sealed under the previous key (seal it again). */
export function unseal(keys: SecretKeys, name: string, envelope: string): { value: string; stale: boolean } {
  const [version, id, iv, sealed, tag] = envelope.split('.');
  if (version !== 'v1' || !id || !iv || sealed === undefined || !tag)
    throw new SecretKeyError(`the stored secret ${name} is not in a format this server knows`);
  const key = id === keys.current.id ? keys.current : id === keys.previous?.id ? keys.previous : undefined;
  if (!key) {
    throw new SecretKeyError(
      `the stored secret ${name} was sealed with a key that is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS; set SECRETS_KEY_PREVIOUS to the key it was sealed with (or delete the secret in the studio)`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const value = Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    return { value, stale: key !== keys.current };
  } catch {
    throw new SecretKeyError(`the stored secret ${name} does not open with its key: it was changed in the store`);
  }
}
