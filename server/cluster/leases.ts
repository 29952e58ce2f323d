import type { RedisClient } from './redis-client.ts';

const PREFIX = 'chatbot:lease:';
// Deletes the key only while this node holds it: a lease taken over after expiry is not ours to end.
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Short leases on background work (a dataset pull): one node does it, the others skip it.
 * Kept in Redis because losing one costs at most a second node doing the same idempotent
 * work, never data; while Redis is away every node does the work itself.
 */
export class Leases {
  private readonly held = new Set<string>();

  constructor(
    private readonly client: RedisClient,
    private readonly owner: string,
  ) {}

  /** True when this node now holds `name` for `ms`; false when another node does. */
  async take(name: string, ms: number): Promise<boolean> {
    try {
      const taken = (await this.client.set(PREFIX + name, this.owner, { NX: true, PX: ms })) === 'OK';
      if (taken) this.held.add(name);
      return taken;
    } catch {
      return true;
    }
  }

  async release(name: string): Promise<void> {
    this.held.delete(name);
    await this.client.eval(RELEASE, { keys: [PREFIX + name], arguments: [this.owner] }).catch(() => undefined);
  }

  /** Ends every lease this node holds, so another node need not wait for them to expire (shutdown). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.held].map((name) => this.release(name)));
  }
}
