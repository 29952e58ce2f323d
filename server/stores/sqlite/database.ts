/**
 * The one SQLite binding the store uses: Node's built-in `node:sqlite`, behind the small
 * connection and statement API the store was written against (prepare, get/all/run/iterate,
 * raw and pluck rows, transactions that nest as savepoints, pragma). Every file of the SQLite
 * store takes its types from here, never from a driver.
 *
 * Why the built-in module: nothing to compile at `npm ci`, so an install works on any Node and
 * the server runs on the Node line it is started with (a native binding built for one line
 * does not load on another), and it has none of the native binding's GC abort on Node 24.19+
 * (`scripts/sqlite-gc-check.mjs`). README, "Node", says which lines are tested.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

type Sqlite = typeof import('node:sqlite');

/**
 * Node 22 prints an ExperimentalWarning the first time `node:sqlite` loads (Node 24 and 26 do
 * not). An operator cannot act on it, so that one warning is held back; any other passes on.
 */
function loadSqlite(): Sqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as Sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}

const sqlite = loadSqlite();

export interface RunResult {
  /** Rows changed: a number, as big integers are not switched on (`setReadBigInts`). */
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

/** What a row comes back as: an object by column name (default), an array (`raw`) or the first column (`pluck`). */
type RowShape = 'object' | 'array' | 'first';

/**
 * Values bound to a statement: positional values, or one object of named values (`@name`,
 * `:name` or `$name` in the SQL, the bare name as the key). `undefined` binds NULL, as the
 * store's callers expect of an optional field.
 */
function bindable(params: readonly unknown[]): SQLInputValue[] {
  let out: SQLInputValue[] | undefined;
  for (let i = 0; i < params.length; i += 1) {
    const value = params[i];
    if (value === undefined) {
      out ??= params.slice() as SQLInputValue[];
      out[i] = null;
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      let named: Record<string, SQLInputValue> | undefined;
      for (const key in value) {
        if ((value as Record<string, unknown>)[key] === undefined) {
          named ??= { ...(value as Record<string, SQLInputValue>) };
          named[key] = null;
        }
      }
      if (named !== undefined) {
        out ??= params.slice() as SQLInputValue[];
        out[i] = named as unknown as SQLInputValue;
      }
    }
  }
  return out ?? (params as SQLInputValue[]);
}

/**
 * A prepared statement. `P` names the values it binds and `R` the row it reads, for the
 * caller's benefit only (SQLite checks neither).
 */
export class Statement<P extends unknown[] | object = unknown[], R = unknown> {
  readonly #inner: StatementSync;
  #shape: RowShape = 'object';
  /** Type-only: what the statement binds. */
  declare readonly bindsType?: P;

  constructor(inner: StatementSync) {
    this.#inner = inner;
    // The store passes one object to several statements that each use part of it.
    inner.setAllowUnknownNamedParameters(true);
  }

  /** Rows come back as arrays of column values in select order. */
  raw(on = true): this {
    this.#inner.setReturnArrays(on);
    this.#shape = on ? 'array' : 'object';
    return this;
  }

  /** Rows come back as the value of their first column. */
  pluck(on = true): this {
    this.#inner.setReturnArrays(on);
    this.#shape = on ? 'first' : 'object';
    return this;
  }

  run(...params: unknown[]): RunResult {
    return this.#inner.run(...bindable(params)) as RunResult;
  }

  get(...params: unknown[]): R | undefined {
    const row = this.#inner.get(...bindable(params)) as unknown;
    if (row === undefined) return undefined;
    return (this.#shape === 'first' ? (row as unknown[])[0] : row) as R;
  }

  all(...params: unknown[]): R[] {
    const rows = this.#inner.all(...bindable(params)) as unknown[];
    if (this.#shape !== 'first') return rows as R[];
    return rows.map((row) => (row as unknown[])[0] as R);
  }

  *iterate(...params: unknown[]): IterableIterator<R> {
    const first = this.#shape === 'first';
    for (const row of this.#inner.iterate(...bindable(params)) as IterableIterator<unknown>) {
      yield (first ? (row as unknown[])[0] : row) as R;
    }
  }
}

/** A function that runs inside one transaction: `BEGIN` (or `.immediate`/`.exclusive`) … `COMMIT`, or `ROLLBACK` on a throw. */
export type Transaction<F extends (...args: never[]) => unknown> = F & {
  readonly deferred: F;
  readonly immediate: F;
  readonly exclusive: F;
};

export interface OpenOptions {
  /** Opens the file for reading only (a look at another process's store). */
  readonly readonly?: boolean;
}

/** One connection. */
export class Database {
  readonly #db: DatabaseSync;
  readonly #control = new Map<string, StatementSync>();

  constructor(file: string, options: OpenOptions = {}) {
    // Foreign keys are switched on by the store's pragmas, as before; the defaults are SQLite's.
    this.#db = new sqlite.DatabaseSync(file, {
      readOnly: options.readonly === true,
      enableForeignKeyConstraints: false,
    });
  }

  get open(): boolean {
    return this.#db.isOpen;
  }

  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
    return new Statement<P, R>(this.#db.prepare(sql));
  }

  exec(sql: string): this {
    this.#db.exec(sql);
    return this;
  }

  /** Runs `PRAGMA <source>` and returns its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options: { readonly simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    if (options.simple !== true) return statement.all();
    return statement.pluck().get();
  }

  /**
   * Wraps `fn` in a transaction. Called inside another transaction it runs in a savepoint, so
   * a throw undoes its own writes only; the outer transaction decides the rest.
   */
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    const wrap = (begin: string): F =>
      ((...args: Parameters<F>) => {
        if (this.#db.isTransaction) return this.#inSavepoint(fn, args);
        this.#run(begin);
        try {
          const result = fn(...args);
          this.#run('COMMIT');
          return result;
        } catch (error) {
          // A failed COMMIT (busy, I/O) can leave the transaction open: end it before handing the error on.
          if (this.#db.isTransaction) this.#run('ROLLBACK');
          throw error;
        }
      }) as F;
    const deferred = wrap('BEGIN');
    return Object.assign(deferred, {
      deferred,
      immediate: wrap('BEGIN IMMEDIATE'),
      exclusive: wrap('BEGIN EXCLUSIVE'),
    });
  }

  close(): void {
    this.#db.close();
  }

  #inSavepoint<F extends (...args: never[]) => unknown>(fn: F, args: Parameters<F>): ReturnType<F> {
    this.#run('SAVEPOINT nested');
    try {
      const result = fn(...args) as ReturnType<F>;
      this.#run('RELEASE nested');
      return result;
    } catch (error) {
      this.#run('ROLLBACK TO nested');
      this.#run('RELEASE nested');
      throw error;
    }
  }

  /** Transaction control statements, prepared once per connection. */
  #run(sql: string): void {
    let statement = this.#control.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#control.set(sql, statement);
    }
    statement.run();
  }
}

/** Opens a connection to `file` (`:memory:` for a throw-away database). */
export function openDatabase(file: string, options: OpenOptions = {}): Database {
  return new Database(file, options);
}
