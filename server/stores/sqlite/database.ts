/**
 * The one SQLite binding the store uses. Every file in the SQLite store imports its
 * connection and statement types from here, never from a driver package.
 */
import BetterSqlite from 'better-sqlite3';

export type Database = BetterSqlite.Database;
export type Statement<P extends unknown[] | object = unknown[], R = unknown> = BetterSqlite.Statement<P, R>;
export type Transaction<F extends (...args: never[]) => unknown> = BetterSqlite.Transaction<F>;

export interface OpenOptions {
  /** Opens the file for reading only (a look at another process's store). */
  readonly readonly?: boolean;
}

/** Opens a connection to `file` (`:memory:` for a throw-away database). */
export function openDatabase(file: string, options: OpenOptions = {}): Database {
  return new BetterSqlite(file, { readonly: options.readonly === true });
}
