import { randomUUID } from 'node:crypto';
import type { HeldLease, Leases } from '../ports/leases.ts';
import type { RedisClient } from './redis-client.ts';

const PREFIX = 'chatbot:turn:';
// Both act only while the key still holds this holding's token: a lease taken over after expiry is not ours.
const RENEW =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * One user's turn lease across the cluster's nodes, in Redis (SET NX PX): a round trip
 * to memory per turn instead of three writes to the store. What serialises a user's
 * turns for good is still the store's compare-and-set on the user's version, so a
 * lease lost with Redis costs at most two turns of one user running side by side, one
 * of which is then redone: never a lost update. While Redis is away every node takes
 * the lease as granted, and the version check alone keeps turns apart.
 */
export class RedisTurnLeases implements Leases {
  constructor(private readonly client: RedisClient) {}

  async acquireLease(key: string, _owner: string, ttlMs: number, now: number): Promise<HeldLease | null> {
    const token = randomUUID();
    try {
      const taken = await this.client.set(PREFIX + key, token, { NX: true, PX: ttlMs });
      return taken === 'OK' ? { token, until: now + ttlMs } : null;
    } catch {
      return { token, until: now + ttlMs };
    }
  }

  async renewLease(key: string, token: string, ttlMs: number): Promise<boolean> {
    try {
      return (await this.client.eval(RENEW, { keys: [PREFIX + key], arguments: [token, String(ttlMs)] })) === 1;
    } catch {
      return true;
    }
  }

  async releaseLease(key: string, token: string): Promise<void> {
    await this.client.eval(RELEASE, { keys: [PREFIX + key], arguments: [token] }).catch(() => undefined);
  }
}
