import { MAX_PASSWORD } from '../../../shared/studio-people.ts';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id at OWASP's first recommended setting (Password Storage Cheat Sheet): 19 MiB of memory,
 * two passes, one lane. The parameters travel in the stored PHC string, so a later raise of them
 * still verifies older hashes (and `needsRehash` tells the accounts store to keep a new one).
 */
// `algorithm: 2` is the package's Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const PARAMETERS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** ASVS 2.1.1 / 2.1.2: at least 12 characters, at least 64 allowed; no composition rules. */
export const MIN_PASSWORD = 12;
// The studio API's bound (shared/studio-people.ts), so the route and the check agree.
export { MAX_PASSWORD };

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMETERS);
}

/** Verifies against a stored hash; a malformed hash is a mismatch, never an exception. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Whether a hash was made with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(
    `$argon2id$v=19$m=${PARAMETERS.memoryCost},t=${PARAMETERS.timeCost},p=${PARAMETERS.parallelism}$`,
  );
}

let dummy: Promise<string> | undefined;
/**
 * Spends the same work as a real check for an email nobody has, so the answer's timing does not
 * tell which emails have accounts.
 */
export async function verifyNobody(password: string): Promise<false> {
  dummy ??= hashPassword('a password no account has, for timing only');
  await verifyPassword(await dummy, password);
  return false;
}

/** Why a new password is refused, in a sentence; undefined when it is fine. */
export function passwordProblem(password: string, email: string): string | undefined {
  if ([...password].length < MIN_PASSWORD)
    return `Choose a password of at least ${MIN_PASSWORD} characters; a few words in a row are easy to remember.`;
  if ([...password].length > MAX_PASSWORD) return `Choose a password of at most ${MAX_PASSWORD} characters.`;
  if (password.toLowerCase().includes(email.toLowerCase().split('@')[0]!) && email.split('@')[0]!.length >= 4)
    return 'Choose a password that does not contain your email address.';
  if (/^(.)\1+$/.test(password)) return 'Choose a password that is not one character repeated.';
  return undefined;
}
