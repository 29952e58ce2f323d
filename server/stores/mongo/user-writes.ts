import type { KeyLocks } from './key-lock.ts';
import type { Outboxes } from './turn-outbox.ts';
import type { SettledTurns } from './unsent-entries.ts';
import type { UserDocCache } from './user-doc-cache.ts';

/**
 * What the writers of a user's document and transcript (appends, turns, the reads that repair)
 * share in one store: the users' locks, the turn outboxes still to move, the turns this process
 * itself settled, and the user documents it just read.
 */
export interface UserWrites {
  readonly locks: KeyLocks;
  readonly outboxes: Outboxes;
  readonly settled: SettledTurns;
  readonly cache?: UserDocCache;
}
