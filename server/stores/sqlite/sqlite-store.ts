import { openDatabase, type Database } from './database.ts';
import { closeSync, openSync } from 'node:fs';
import type { Store } from '../../ports/store.ts';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { migrate } from './migrations.ts';
import { sqliteDatasets } from './sqlite-datasets.ts';
import { sqliteJobPurge } from './sqlite-job-purge.ts';
import { sqliteJobStats } from './sqlite-job-stats.ts';
import { sqliteJobs } from './sqlite-jobs.ts';
import { sqliteLeases } from './sqlite-leases.ts';
import { sqliteLogs } from './sqlite-logs.ts';
import { sqlitePersonalData } from './sqlite-personal-data.ts';
import { sqliteTranscript } from './sqlite-transcript.ts';
import { sqliteTurns } from './sqlite-turns.ts';
import { sqliteUsers } from './sqlite-users.ts';

export interface SqliteStoreOptions {
  /** Path of the database file, or `:memory:` for a throw-away store. */
  readonly file: string;
  /** How long a writer waits for another process's lock before failing (ms). Default 5000. */
  readonly busyTimeoutMs?: number;
}

export interface SqliteStore extends Store {
  readonly kind: 'sqlite';
  readonly file: string;
  /**
   * The connection, for the adapters of stores with ports of their own (the studio's versions,
   * accounts, audit, …) in this folder; their tables come through the same migrations.
   * Never handed beyond the stores and the composition root.
   */
  readonly db: Database;
}

/**
 * Opens (creating and migrating when needed) the embedded SQLite store.
 * Throws when the file cannot be opened or was written by a newer schema.
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  // The file holds personal data: created readable by the server's user only. SQLite gives
  // its -wal and -shm files the database file's mode. An existing file keeps the mode it has.
  if (options.file !== ':memory:') closeSync(openSync(options.file, 'a', 0o600));
  const db = openDatabase(options.file);
  try {
    // WAL lets exports read while messages are written; NORMAL is durable
    // across application crashes in WAL mode and much cheaper than FULL.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    db.pragma('foreign_keys = ON');
    // The page cache holds the hot part of the users, jobs and transcript indexes (SQLite's default is 2 MiB).
    db.pragma('cache_size = -16384');
    migrate(db);
  } catch (error) {
    db.close();
    throw new Error(`cannot open SQLite store ${options.file}: ${(error as Error).message}`, { cause: error });
  }

  let checkpointer: Checkpointer | undefined;
  if (options.file !== ':memory:') {
    checkpointer = startCheckpointer(options.file);
    // Backstop only (checkpointer.ts): 10,000 pages is about 40 MiB of WAL.
    db.pragma('wal_autocheckpoint = 10000');
  }

  const ping = db.prepare('SELECT 1');
  const users = sqliteUsers(db);
  const transcript = sqliteTranscript(db);
  return {
    kind: 'sqlite',
    db,
    file: options.file,
    async ping() {
      ping.get();
    },
    async close() {
      await checkpointer?.stop();
      checkpointer = undefined;
      if (db.open) db.close();
    },
    ...users,
    ...transcript,
    // Both reads are synchronous (better-sqlite3): nothing else runs between them.
    async readReturning(userId, afterSeq, limit) {
      const [user, missed] = [users.getUser(userId), transcript.readTranscript(userId, afterSeq, limit)];
      return { user: await user, missed: await missed };
    },
    ...sqliteTurns(db),
    ...sqliteLogs(db),
    ...sqliteJobs(db),
    ...sqliteDatasets(db),
    ...sqliteLeases(db),
    ...sqlitePersonalData(db),
    ...sqliteJobStats(db),
    ...sqliteJobPurge(db),
  };
}
