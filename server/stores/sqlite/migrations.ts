import type { Database } from './database.ts';

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
    version: 7,
    description:
      'userData lists users by their last message (or creation); bot entries name the dialog and step they came from',
    // users_by_listed serves the userData export, whose timestamp is the user's last message,
    // or their creation for a user who never wrote (spec 4.1 rule 1): unlike updated_at it does
    // not move with bot activity, so a trigger or a timer no longer rewrites this index either.
    // The expression must stay written exactly as the export's query writes it.
    sql: `
      DROP INDEX users_by_activity;
      CREATE INDEX users_by_listed ON users (coalesce(last_message_at, created_at), seq);
      ALTER TABLE transcript ADD COLUMN dialog_id TEXT;
      ALTER TABLE transcript ADD COLUMN step_id TEXT;
    `,
  },
  {
    version: 8,
    description: 'the studio: bot versions, publications, drafts',
    // Versions and publications are append-only; their number is the order and the head is the
    // highest, so "save on this head" is one INSERT of the next number inside a transaction.
    sql: `
      CREATE TABLE studio_versions (
        number      INTEGER PRIMARY KEY,
        id          TEXT    NOT NULL UNIQUE,
        parent_id   TEXT,
        author      TEXT    NOT NULL,
        created_at  INTEGER NOT NULL,
        message     TEXT    NOT NULL,
        hash        TEXT    NOT NULL,
        source      TEXT    NOT NULL,
        definition  TEXT    NOT NULL
      );
      CREATE TABLE studio_publications (
        seq         INTEGER PRIMARY KEY,
        version_id  TEXT    NOT NULL REFERENCES studio_versions (id),
        previous_id TEXT,
        at          INTEGER NOT NULL,
        by_whom     TEXT    NOT NULL,
        kind        TEXT    NOT NULL,
        moves       TEXT    NOT NULL,
        message     TEXT
      );
      CREATE TABLE studio_drafts (
        account_id      TEXT    PRIMARY KEY,
        base_version_id TEXT,
        definition      TEXT    NOT NULL,
        revision        INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE studio_marks (
        name  TEXT    PRIMARY KEY,
        value TEXT    NOT NULL,
        at    INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 9,
    description: 'studio: accounts, setup links, API tokens, sessions, the audit trail, secrets',
    // Secrets of people are stored as digests (setup links, API tokens, session ids) or hashes
    // (passwords); integration secrets encrypted by the secrets store. email is kept lower-cased.
    sql: `
      CREATE TABLE studio_accounts (
        seq           INTEGER PRIMARY KEY AUTOINCREMENT,
        id            TEXT    NOT NULL UNIQUE,
        email         TEXT    NOT NULL UNIQUE,
        name          TEXT    NOT NULL,
        role          TEXT    NOT NULL,
        password_hash TEXT,
        oidc_subject  TEXT    UNIQUE,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE TABLE studio_setup_links (
        token_hash TEXT    PRIMARY KEY,
        role       TEXT    NOT NULL,
        email      TEXT,
        created_by TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE studio_tokens (
        id           TEXT    PRIMARY KEY,
        account_id   TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        token_hash   TEXT    NOT NULL UNIQUE,
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER,
        last_used_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX studio_tokens_by_account ON studio_tokens (account_id, created_at);
      CREATE TABLE studio_sessions (
        id           TEXT    PRIMARY KEY,
        account_id   TEXT    NOT NULL,
        csrf_token   TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL,
        ip           TEXT    NOT NULL,
        user_agent   TEXT    NOT NULL,
        method       TEXT    NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX studio_sessions_by_account ON studio_sessions (account_id);
      CREATE TABLE studio_audit (
        id      TEXT    PRIMARY KEY,
        at      INTEGER NOT NULL,
        entry   TEXT    NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX studio_audit_by_time ON studio_audit (at, id);
      CREATE TABLE studio_secrets (
        name       TEXT    PRIMARY KEY,
        ciphertext TEXT    NOT NULL,
        updated_at INTEGER NOT NULL,
        updated_by TEXT    NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
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
  {
    version: 12,
    description: 'insights: counters by day and published version, one summary per conversation',
    // Counters are written about once a second in one transaction (app/insights/recorder.ts); a
    // 30-day dashboard reads at most a few thousand rows of insight_counts by its primary key.
    // Conversations are searched newest first by their start. Preview users are marked by migration 14.
    sql: `
      CREATE TABLE insight_counts (
        day     INTEGER NOT NULL,
        metric  TEXT    NOT NULL,
        version TEXT    NOT NULL,
        a       TEXT    NOT NULL,
        b       TEXT    NOT NULL,
        n       INTEGER NOT NULL,
        PRIMARY KEY (day, metric, version, a, b)
      ) WITHOUT ROWID;
      CREATE TABLE insight_conversations (
        user_id    TEXT    NOT NULL,
        started_at INTEGER NOT NULL,
        last_at    INTEGER NOT NULL,
        channel    TEXT    NOT NULL,
        error      INTEGER NOT NULL,
        text       TEXT    NOT NULL,
        steps      TEXT    NOT NULL,
        summary    TEXT    NOT NULL,
        PRIMARY KEY (user_id, started_at)
      ) WITHOUT ROWID;
      CREATE INDEX insight_conversations_by_start ON insight_conversations (started_at, user_id);
      CREATE INDEX insight_conversations_by_last ON insight_conversations (last_at);
    `,
  },
  {
    version: 13,
    description: 'studio: who has the designer open (presence)',
    // One row per account, replaced on every beat; old rows are purged now and then.
    sql: `
      CREATE TABLE studio_presence (
        account_id TEXT    PRIMARY KEY,
        name       TEXT    NOT NULL,
        dialog     TEXT,
        at         INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX studio_presence_by_time ON studio_presence (at);
    `,
  },
  {
    version: 14,
    description: "studio: preview users marked (ports/preview.ts); the bot's tests",
    // The mark is NULL for every real user, so the partial index holds the few preview users only;
    // exports and counts leave them out with "preview IS NULL" / "NOT IN (… WHERE preview IS NOT NULL)".
    // The bot's tests: one document (the chatbot test format), replaced on a revision check.
    sql: `
      ALTER TABLE users ADD COLUMN preview TEXT;
      CREATE INDEX users_preview ON users (updated_at, user_id) WHERE preview IS NOT NULL;
      CREATE TABLE studio_bot_tests (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        body       TEXT    NOT NULL,
        revision   INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        updated_by TEXT    NOT NULL
      );
    `,
  },
  {
    version: 17,
    description:
      'insights: conversations kept in the order they started in (the search reads them that way), their user data in a column of its own',
    // The search reads conversations newest first by their start and tests each one's words, channel,
    // steps or user data. Keyed by (user_id, started_at) with an index by start, every row read was a
    // lookup into the table in another order (bench/insights.ts: about 5 times the CPU of reading the
    // table in key order). Keyed by start, the search reads the table in order; the user's own
    // conversations (transcript view, erasure, a summary's upsert) go through the unique index by user.
    // A search by a user-data field reads user_data (the summary's userData, a few fields) rather
    // than parsing the whole summary of every row (steps and words, kilobytes each).
    sql: `
      CREATE TABLE insight_conversations_by_start_order (
        started_at INTEGER NOT NULL,
        user_id    TEXT    NOT NULL,
        last_at    INTEGER NOT NULL,
        channel    TEXT    NOT NULL,
        error      INTEGER NOT NULL,
        text       TEXT    NOT NULL,
        steps      TEXT    NOT NULL,
        user_data  TEXT    NOT NULL,
        summary    TEXT    NOT NULL,
        PRIMARY KEY (started_at, user_id)
      ) WITHOUT ROWID;
      INSERT INTO insight_conversations_by_start_order (started_at, user_id, last_at, channel, error, text, steps, user_data, summary)
        SELECT started_at, user_id, last_at, channel, error, text, steps, coalesce(json_extract(summary, '$.userData'), '{}'), summary FROM insight_conversations;
      DROP TABLE insight_conversations;
      ALTER TABLE insight_conversations_by_start_order RENAME TO insight_conversations;
      CREATE UNIQUE INDEX insight_conversations_by_user ON insight_conversations (user_id, started_at);
      CREATE INDEX insight_conversations_by_last ON insight_conversations (last_at);
    `,
  },
  {
    version: 18,
    description:
      "channels: the connectors' inbound events, unique by (channel, vendor event id), so a redelivery is a no-op",
    sql: `
      CREATE TABLE channel_inbound (
        channel     TEXT    NOT NULL,
        event_id    TEXT    NOT NULL,
        job_id      TEXT    NOT NULL,
        received_at INTEGER NOT NULL,
        PRIMARY KEY (channel, event_id)
      ) WITHOUT ROWID;
      CREATE INDEX channel_inbound_by_received ON channel_inbound (received_at);
    `,
  },
  {
    version: 19,
    description:
      "channels: one person's linked addresses, the one-time codes that link them (hashed) and the wrong tries",
    // A person's id is its primary address's user id; each address row names it. Codes are kept by
    // their hash only; a wrong try is a row, counted over a window and purged with expired codes.
    sql: `
      CREATE TABLE identity_links (
        user_id    TEXT    NOT NULL PRIMARY KEY,
        channel_id TEXT    NOT NULL,
        person_id  TEXT    NOT NULL,
        linked_at  INTEGER NOT NULL,
        used_at    INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX identity_links_by_person ON identity_links (person_id, linked_at);
      CREATE TABLE link_codes (
        code_hash         TEXT    NOT NULL PRIMARY KEY,
        issuer_user_id    TEXT    NOT NULL,
        issuer_channel_id TEXT    NOT NULL,
        expires_at        INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX link_codes_by_issuer ON link_codes (issuer_user_id);
      CREATE TABLE link_misses (
        user_id TEXT    NOT NULL,
        at      INTEGER NOT NULL
      );
      CREATE INDEX link_misses_by_user ON link_misses (user_id, at);
    `,
  },
  {
    version: 20,
    description: 'insights: counters by channel as well (the channel each conversation started on)',
    // The channel joins the key, so a dashboard for one channel reads its rows by the same index; the
    // counters written before have no channel (''): they add to the totals of every channel, to none alone.
    sql: `
      CREATE TABLE insight_counts_by_channel (
        day     INTEGER NOT NULL,
        metric  TEXT    NOT NULL,
        version TEXT    NOT NULL,
        channel TEXT    NOT NULL,
        a       TEXT    NOT NULL,
        b       TEXT    NOT NULL,
        n       INTEGER NOT NULL,
        PRIMARY KEY (day, metric, version, channel, a, b)
      ) WITHOUT ROWID;
      INSERT INTO insight_counts_by_channel (day, metric, version, channel, a, b, n)
        SELECT day, metric, version, '', a, b, n FROM insight_counts;
      DROP TABLE insight_counts;
      ALTER TABLE insight_counts_by_channel RENAME TO insight_counts;
    `,
  },
  {
    version: 21,
    description: 'the due-jobs index holds pending jobs only',
    // Claims and the queue's figures read pending jobs alone. Every job finished moved its entry in an
    // index of all jobs ever run (running → done), and a job stored already leased (a channel turn, its
    // send) added one: two index writes a job, and their pages in each commit, for no reader.
    sql: `
      DROP INDEX jobs_due;
      CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status = 'pending';
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
