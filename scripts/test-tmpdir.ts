/**
 * One temporary folder per test run, under the system's: every `os.tmpdir()` of the run (its tests, the servers
 * and browsers they start, FerretDB and PostgreSQL) lands in it, and it is removed when the run ends. Without it,
 * each run left hundreds of folders (bot files, CLI scratch, crash-test data) behind in /tmp.
 *
 * Set in a global setup, which runs before vitest forks its workers, so they and their children inherit TMPDIR.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function useRunTmpdir(prefix: string): () => void {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Passable but not listable by other accounts: the private PostgreSQL cluster runs as the `postgres` account when
  // the tests run as root, and must reach its data folder inside (each test's own folders stay 0700).
  chmodSync(dir, 0o711);
  process.env.TMPDIR = dir;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    // KEEP_TEST_TMPDIR=1 keeps it, to read a failed run's files afterwards.
    if (process.env.KEEP_TEST_TMPDIR === '1') console.log(`[test run] kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
