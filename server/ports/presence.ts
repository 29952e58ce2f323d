/**
 * Who has the designer open, and on which dialog: each open designer says so every few seconds
 * (a beat), and lists the others who did recently. Shared by every node (it lives in the store),
 * so two editors on different nodes of a cluster see each other. A courtesy, never a lock.
 */
export interface PresenceBeat {
  readonly accountId: string;
  /** The name the others read. */
  readonly name: string;
  /** The dialog the editor is on, if any. */
  readonly dialog?: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

export interface PresenceBoard {
  /** Records (or refreshes) an editor's beat: one entry per account, the newest wins. */
  beat(beat: PresenceBeat): Promise<void>;
  /** The beats at or after `since`, newest first. */
  list(since: number): Promise<PresenceBeat[]>;
  /** Forgets beats older than `before` (called now and then; stale ones are never listed anyway). */
  purge(before: number): Promise<number>;
}
