import type { Database } from 'better-sqlite3';

/**
 * Schema migrations of the SQLite store, oldest first. A migration is never
 * edited once released: add a new one instead. `PRAGMA user_version` records
 * the last one applied.
 */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'users, transcript, logs, jobs, datasets',
    sql: `
      -- seq is the creation order, the tie-break of exports; user_id is the key callers use.
      CREATE TABLE users (
        seq             INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id         TEXT    NOT NULL UNIQUE,
        channel_id      TEXT    NOT NULL,
        position        TEXT,
        variables       TEXT    NOT NULL,
        user_data       TEXT    NOT NULL,
        last_message_at INTEGER,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        version         INTEGER NOT NULL,
        last_seq        INTEGER NOT NULL
      );
      CREATE INDEX users_by_last_message ON users (last_message_at, seq)
        WHERE last_message_at IS NOT NULL;

      CREATE TABLE transcript (
        user_id   TEXT    NOT NULL,
        seq       INTEGER NOT NULL,
        sender    TEXT    NOT NULL CHECK (sender IN ('user', 'bot')),
        client_id TEXT,
        at        INTEGER NOT NULL,
        message   TEXT    NOT NULL,
        PRIMARY KEY (user_id, seq)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX transcript_by_client_id ON transcript (user_id, client_id)
        WHERE client_id IS NOT NULL;

      -- AUTOINCREMENT so ids are never reused: a cursor must not point at a later entry.
      CREATE TABLE logs (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        kind      TEXT    NOT NULL,
        user_id   TEXT    NOT NULL,
        timestamp INTEGER NOT NULL,
        data      TEXT    NOT NULL
      );
      CREATE INDEX logs_by_time ON logs (kind, timestamp, id);

      CREATE TABLE jobs (
        id           TEXT    PRIMARY KEY,
        kind         TEXT    NOT NULL,
        payload      TEXT    NOT NULL,
        run_at       INTEGER NOT NULL,
        status       TEXT    NOT NULL,
        attempts     INTEGER NOT NULL,
        max_attempts INTEGER NOT NULL,
        lease_owner  TEXT,
        lease_until  INTEGER,
        last_error   TEXT
      );
      CREATE INDEX jobs_due ON jobs (status, run_at);

      CREATE TABLE datasets (
        name       TEXT    PRIMARY KEY,
        row_count  INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE dataset_rows (
        dataset TEXT NOT NULL,
        id      TEXT NOT NULL,
        tags    TEXT NOT NULL,
        lat     REAL,
        lon     REAL,
        data    TEXT NOT NULL,
        PRIMARY KEY (dataset, id)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    description: 'job claims read only what they take',
    // With id in the index, a claim walks the due jobs already in claim order instead of
    // sorting ties; the lease index finds expired leases without reading every running job.
    sql: `
      DROP INDEX jobs_due;
      CREATE INDEX jobs_due ON jobs (status, run_at, id);
      CREATE INDEX jobs_leases ON jobs (lease_until) WHERE status = 'running';
    `,
  },
  {
    version: 3,
    description: 'triggers run once and in order per user',
    // The group index holds only jobs still to finish: a few pages that stay in the cache.
    // Keyed by user, an index of every job ever run would take each new trigger to a page
    // of its own, and the dirty pages of a burst's group commit with it.
    sql: `
      ALTER TABLE users ADD COLUMN last_trigger TEXT;
      ALTER TABLE jobs ADD COLUMN job_group TEXT;
      CREATE INDEX jobs_by_group ON jobs (job_group, id) WHERE status IN ('pending', 'running');
    `,
  },
  {
    version: 4,
    description: 'leases: one holder per key for a short while',
    sql: `
      CREATE TABLE leases (
        key   TEXT    PRIMARY KEY,
        token TEXT    NOT NULL,
        owner TEXT    NOT NULL,
        until INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 5,
    description: 'a stored message whose turn failed waits to be answered',
    sql: `ALTER TABLE users ADD COLUMN pending_seq INTEGER;`,
  },
  {
    version: 6,
    description: 'personal data: erasure by user, retention by age, exports of every user and the transcript',
    // logs_by_user lets an erasure find one user's rows without reading every log;
    // transcript_by_time serves retention and the transcript export; users_by_activity
    // the userData export of every known user.
    sql: `
      CREATE INDEX logs_by_user ON logs (user_id);
      CREATE INDEX transcript_by_time ON transcript (at, user_id, seq);
      CREATE INDEX users_by_activity ON users (updated_at, seq);
    `,
  },
  {
    version: 11,
    description: 'event subscriptions and their event log; usage counters of step types',
    // AUTOINCREMENT: an event's seq is never handed out again, even after the newest events
    // were purged or erased, so a subscriber's cursor can never skip a later event.
    sql: `
      CREATE TABLE subscriptions (
        id                TEXT    PRIMARY KEY,
        target_url        TEXT    NOT NULL,
        kinds             TEXT    NOT NULL,
        secret            TEXT    NOT NULL,
        created_at        INTEGER NOT NULL,
        status            TEXT    NOT NULL,
        cursor            INTEGER NOT NULL,
        failures          INTEGER NOT NULL,
        last_error        TEXT,
        last_attempt_at   INTEGER,
        last_delivered_at INTEGER,
        paused_at         INTEGER
      ) WITHOUT ROWID;
      CREATE TABLE subscription_events (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        id         TEXT    NOT NULL UNIQUE,
        kind       TEXT    NOT NULL,
        user_id    TEXT    NOT NULL,
        channel_id TEXT    NOT NULL,
        at         INTEGER NOT NULL,
        data       TEXT    NOT NULL
      );
      CREATE INDEX subscription_events_by_kind ON subscription_events (kind, seq);
      CREATE INDEX subscription_events_by_user ON subscription_events (user_id);
      CREATE INDEX subscription_events_by_time ON subscription_events (at);
      CREATE TABLE usage_counters (
        counter TEXT    NOT NULL,
        user_id TEXT    NOT NULL,
        day     TEXT    NOT NULL,
        amount  INTEGER NOT NULL,
        PRIMARY KEY (user_id, counter, day)
      ) WITHOUT ROWID;
    `,
  },
];

/** Brings the schema up to date; refuses a database written by a newer server. */
export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(
      `SQLite store schema is at version ${current}, newer than this server knows (${latest}): refusing to open it`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
