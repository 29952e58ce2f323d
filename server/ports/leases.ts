/**
 * Leases: a key held by one owner at a time, for a short while, across every
 * process sharing the store. A holder renews its lease while it works; a
 * holder that dies simply stops renewing, and the key is free again once the
 * lease runs out (seconds, not minutes). Used to run one user's turns one at a
 * time across processes, and open to any other "one node at a time" work.
 *
 * Times are UNIX epoch milliseconds from the caller's clock: every process
 * sharing the store must keep roughly the same time (NTP), and TTLs should be
 * far larger than the skew.
 */
export interface HeldLease {
  /** Proves the holding: pass it to renew and release. Unique per acquisition. */
  readonly token: string;
  /** When the lease runs out unless renewed. */
  readonly until: number;
}

export interface Leases {
  /**
   * Takes `key` for `owner` until `now + ttlMs` when nobody holds it or the
   * holder's lease ran out (`until <= now`). Null when another holder's lease
   * still runs. Of several concurrent acquirers of a free key, exactly one wins.
   */
  acquireLease(key: string, owner: string, ttlMs: number, now: number): Promise<HeldLease | null>;
  /**
   * Extends the lease held with `token` to `now + ttlMs`. False when it is no
   * longer held with that token (it ran out and was taken, or was released):
   * the caller must stop acting as the holder.
   */
  renewLease(key: string, token: string, ttlMs: number, now: number): Promise<boolean>;
  /** Frees the key when still held with `token`; a lease taken over meanwhile is left alone. */
  releaseLease(key: string, token: string): Promise<void>;
}
