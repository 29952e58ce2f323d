/**
 * A token bucket: bursts of up to `burst` events, refilled at `perMinute` a
 * minute. One per web chat connection (a scripted widget cannot flood the bot,
 * a person typing fast never notices) and one per user and integration service.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  private readonly capacity: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
    burst = 10,
  ) {
    this.capacity = Math.max(1, Math.min(burst, perMinute));
    this.tokens = this.capacity;
    this.updatedAt = now();
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) * this.perMinute) / 60_000);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * Token buckets by key, at most `maxKeys` of them: past that the least recently used
 * is dropped (it starts full again if its key comes back), so memory stays bounded
 * however many keys a flood of users brings.
 */
export class KeyedTokenBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
    private readonly burst = 10,
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes one token from the key's bucket; false when it is empty. */
  take(key: string): boolean {
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    else bucket = new TokenBucket(this.perMinute, this.now, this.burst);
    // Re-inserted last: the Map's order is then least recently used first.
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket.take();
  }
}
