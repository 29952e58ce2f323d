import type { Leases } from '../ports/leases.ts';
import type { Logger } from '../ports/logger.ts';
import { KeyedQueue, type TurnQueue } from './keyed-queue.ts';

export interface LeasedTurnsOptions {
  /** Names this process in the lease (host and pid), for an operator reading the store. */
  readonly owner: string;
  /** How long a killed process's lease holds a user's turns back. Default 5 s. */
  readonly ttlMs?: number;
  /** How long a turn waits for another process's turn of the same user before failing. Default 30 s. */
  readonly waitMs?: number;
  /** Wall clock: leases are compared across processes. */
  readonly now?: () => number;
  readonly logger?: Logger;
}

/** Another process kept the user's turn lease longer than a turn may wait. */
export class TurnBusyError extends Error {}

/**
 * One user's turns one at a time across every process sharing the store. In
 * this process a KeyedQueue orders them (the fast path: no store round trip
 * between two turns waiting here); each turn then holds the store lease
 * `turn:<userId>`, renewed while it runs and released after, so a turn of the
 * same user on another process waits for it. A process killed mid-turn stops
 * renewing, and its lease runs out within the TTL. The compare-and-set on the
 * user's version stays the guarantee should a lease run out under a live turn
 * (a stalled process): the later commit then conflicts and is redone.
 */
export class LeasedTurns implements TurnQueue {
  private readonly local = new KeyedQueue();
  private readonly ttlMs: number;
  private readonly waitMs: number;
  private readonly now: () => number;

  constructor(
    private readonly leases: Leases,
    private readonly options: LeasedTurnsOptions,
  ) {
    this.ttlMs = options.ttlMs ?? 5000;
    this.waitMs = options.waitMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.local.run(key, () => this.holding(key, task));
  }

  idle(key: string): Promise<void> {
    return this.local.idle(key);
  }

  get size(): number {
    return this.local.size;
  }

  private async holding<T>(key: string, task: () => Promise<T>): Promise<T> {
    const leaseKey = `turn:${key}`;
    const held = await this.acquire(leaseKey);
    let warned = false;
    const renewal = setInterval(() => {
      this.leases.renewLease(leaseKey, held.token, this.ttlMs, this.now()).then(
        (still) => {
          if (!still && !warned) {
            warned = true;
            this.options.logger?.warn(
              { event: 'turn_lease_lost', userId: key },
              "a turn outlived its lease; the user's version check keeps its commit safe",
            );
          }
        },
        () => undefined,
      );
    }, this.ttlMs / 3);
    try {
      return await task();
    } finally {
      clearInterval(renewal);
      // A release that fails costs the next holder one TTL of waiting, not a wrong turn.
      await this.leases.releaseLease(leaseKey, held.token).catch(() => undefined);
    }
  }

  private async acquire(leaseKey: string) {
    const deadline = this.now() + this.waitMs;
    let pause = 10;
    for (;;) {
      const held = await this.leases.acquireLease(leaseKey, this.options.owner, this.ttlMs, this.now());
      if (held !== null) return held;
      if (this.now() > deadline)
        throw new TurnBusyError(`another process held ${leaseKey} for more than ${this.waitMs} ms`);
      await new Promise((done) => setTimeout(done, pause / 2 + Math.random() * pause));
      pause = Math.min(pause * 2, 250);
    }
  }
}
