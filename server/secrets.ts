import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A secret from the environment, or else one generated on first start and
 * kept in DATA_DIR (mode 0600), so restarts keep sessions and keys valid.
 * `generated` is true only on the start that made it.
 */
export async function persistentSecret(
  dataDir: string,
  name: string,
  fromEnv: string | undefined,
): Promise<{ value: string; generated: boolean }> {
  if (fromEnv) return { value: fromEnv, generated: false };
  const file = path.join(dataDir, `${name}.secret`);
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= 16) return { value: stored, generated: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = randomBytes(32).toString('base64url');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'w' });
  return { value, generated: true };
}
