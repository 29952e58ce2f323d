/**
 * The audit trail: an append-only record of what people (and the file, and the system) did to
 * the bot and its accounts. Owners read it in the studio and export it through the management
 * API; retention covers it like the other logs. Entries never hold a secret's value, a password
 * or a token: a secret change names the secret only.
 */

/** Who acted. */
export interface AuditActor {
  /** `account`: a person signed in to the studio; `token`: an account's API token (CI, `chatbot push`); `file`: BOT_DEFINITION at start; `system`: the server itself; `key`: a caller of the management API with the function key. */
  readonly kind: 'account' | 'token' | 'file' | 'system' | 'key';
  readonly accountId?: string;
  readonly email?: string;
}

export interface AuditEntryInput {
  readonly actor: AuditActor;
  /** The client's address as the trusted proxy settings see it. */
  readonly ip?: string;
  /** What happened: `login`, `login_failed`, `version_saved`, `published`, `rolled_back`, `secret_set`, … */
  readonly action: string;
  /** What it happened to: an account id, a version id, a secret's name. */
  readonly target?: string;
  /** What changed, in plain values (never a secret). */
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface AuditEntry extends AuditEntryInput {
  readonly id: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** Where every room records what it did. */
export interface AuditTrail {
  record(entry: AuditEntryInput): Promise<void>;
}

/** A page of the trail: entries with `from <= at < to`, after the entry `after` names, oldest first. */
export interface AuditQuery {
  /** Epoch milliseconds, inclusive. */
  readonly fromAt?: number;
  /** Epoch milliseconds, exclusive. */
  readonly toAt?: number;
  /** The id of the last entry of the previous page. */
  readonly after?: string;
  readonly limit: number;
}

/**
 * Where the audit room keeps entries. Ids sort as the entries were recorded (they start with
 * the time), so a page's last id is the next page's cursor. Append-only: nothing here changes
 * an entry; only retention removes old ones.
 */
export interface AuditStore {
  appendAudit(entry: AuditEntry): Promise<void>;
  readAudit(query: AuditQuery): Promise<AuditEntry[]>;
  /** Removes entries with `at < before` (retention); answers how many. */
  purgeAuditBefore(before: number): Promise<number>;
}

/** The trail as owners and the management API read it. */
export interface AuditLog extends AuditTrail {
  read(query: AuditQuery): Promise<AuditEntry[]>;
}
